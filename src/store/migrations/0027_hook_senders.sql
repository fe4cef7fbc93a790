-- The client process that sent a hook event, where the hook could tell:
-- `<boot id>/<pid>@<start>`. A session whose client is gone from this
-- machine is never shown working.
ALTER TABLE events_raw ADD COLUMN sender TEXT;
