-- Request-rate windows shared by every server process on this database: the API token limit and
-- the change-source intake limit hold across replicas. One row per key (a token and its rate, or a
-- source); a window opens at its first hit and counts for one minute. UNLOGGED: a counter of the
-- last minute needs no crash safety, and it writes no WAL on every request. Additive: the previous
-- release's servers ignore it and keep their per-process counters.
CREATE UNLOGGED TABLE rate_windows (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);
CREATE INDEX rate_windows_window_start ON rate_windows (window_start);
