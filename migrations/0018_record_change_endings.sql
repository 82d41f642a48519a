-- Why a change ended where it did (an expiry, a cancellation), and who gave its outcome: a window
-- that ran out leaves `unknown`, which the pipeline may still replace once.
ALTER TABLE changes
  ADD COLUMN end_reason text,
  ADD COLUMN outcome_by text CHECK (outcome_by IN ('pipeline', 'person', 'window'));
