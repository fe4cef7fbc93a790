-- A session's title: the name the person gave it, else the title its
-- client made, else the first prompt the person typed (redacted, one line,
-- cut). Sessions stored before this read none until they are read again.
ALTER TABLE sessions ADD COLUMN title TEXT;
