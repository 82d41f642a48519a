-- A window given as "from now" (startNow, or no start at all) moves with the start: a change that
-- waited for approval keeps its length, not its registration-time clock.
ALTER TABLE changes ADD COLUMN relative_window boolean NOT NULL DEFAULT false;
