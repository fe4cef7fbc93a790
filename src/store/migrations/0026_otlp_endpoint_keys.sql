-- An OTLP endpoint is recorded under its URL without user information
-- (a password in `--otlp-endpoint` never stays in the database) and
-- without a trailing slash. Rows recorded under the URL as it was given
-- move to that key; where both forms were recorded, one row stays.
CREATE TEMP TABLE otlp_keys AS
WITH given(old) AS (
    SELECT endpoint FROM otlp_sent_messages UNION SELECT endpoint FROM otlp_sent_sessions
), split AS (
    SELECT old,
           substr(old, 1, instr(old, '://') + 2) AS scheme,
           substr(old, instr(old, '://') + 3) AS rest
    FROM given WHERE instr(old, '://') > 0
), authority AS (
    SELECT old, scheme, rest,
           substr(rest, 1, min(
               CASE instr(rest, '/') WHEN 0 THEN length(rest) + 1 ELSE instr(rest, '/') END,
               CASE instr(rest, '?') WHEN 0 THEN length(rest) + 1 ELSE instr(rest, '?') END,
               CASE instr(rest, '#') WHEN 0 THEN length(rest) + 1 ELSE instr(rest, '#') END) - 1) AS auth
    FROM split
)
SELECT old,
       rtrim(scheme || substr(rest, length(rtrim(auth, replace(auth, '@', ''))) + 1), '/') AS new
FROM authority;
DELETE FROM otlp_keys WHERE new = old;
UPDATE OR IGNORE otlp_sent_messages SET endpoint = (SELECT new FROM otlp_keys WHERE old = endpoint)
    WHERE endpoint IN (SELECT old FROM otlp_keys);
DELETE FROM otlp_sent_messages WHERE endpoint IN (SELECT old FROM otlp_keys);
UPDATE OR IGNORE otlp_sent_sessions SET endpoint = (SELECT new FROM otlp_keys WHERE old = endpoint)
    WHERE endpoint IN (SELECT old FROM otlp_keys);
DELETE FROM otlp_sent_sessions WHERE endpoint IN (SELECT old FROM otlp_keys);
DROP TABLE otlp_keys;
