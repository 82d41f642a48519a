-- How a change's callbacks are shaped: changeledger's own JSON ({event, deliveryId, occurredAt,
-- change}) or a CloudEvents 1.0 structured-mode event. Existing changes keep the format they had.
ALTER TABLE changes
  ADD COLUMN callback_format text NOT NULL DEFAULT 'changeledger' CHECK (callback_format IN ('changeledger', 'cloudevents'));

-- The Content-Type a delivery's body is sent with, fixed when the body is written so that every
-- retry sends the same bytes under the same type; null is application/json (every older row).
ALTER TABLE deliveries ADD COLUMN content_type text;
