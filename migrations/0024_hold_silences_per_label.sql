-- Alertmanager ANDs the matchers of one silence, and the label mapping ORs labels (a service named
-- by `service` or by `app` or by `job`), so a hold keeps one silence per label name per
-- Alertmanager: `label` is the label the silence matches ("service", "instance", "pod:shop"), and
-- `matchers` what was posted, so an extension re-posts the identical matchers and keeps the id.
ALTER TABLE hold_silences ADD COLUMN label text NOT NULL DEFAULT '';
ALTER TABLE hold_silences ALTER COLUMN label DROP DEFAULT;
ALTER TABLE hold_silences ADD COLUMN matchers jsonb NOT NULL DEFAULT '[]';
ALTER TABLE hold_silences DROP CONSTRAINT hold_silences_pkey;
ALTER TABLE hold_silences ADD PRIMARY KEY (change_id, alertmanager_id, label);

-- Why a held alert was re-sent, counted recovered or kept at release, in words.
ALTER TABLE held_alerts ADD COLUMN outcome_reason text;
