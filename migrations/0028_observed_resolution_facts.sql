-- What service resolution read of an event, kept so that editing a map can re-resolve the rows
-- of the last 48 hours exactly as the intake did: the event's own service (a K8s label, an Argo CD
-- app, a CDEvents subject) and the name a cloud resource links itself by.
ALTER TABLE observed_changes ADD COLUMN service_hint text;
ALTER TABLE observed_changes ADD COLUMN resource_name text;
