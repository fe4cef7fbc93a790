-- What a client wrote each response cost by its own price table (pi and
-- its format, OpenCode and its format), by the message's id in the
-- session: `cost` shows it for the messages that have no price here,
-- marked as the client's figure and never added to its own dollars.
CREATE TABLE harness_message_costs (
    session_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    cost_nanousd INTEGER NOT NULL,
    PRIMARY KEY (session_id, message_id)
) WITHOUT ROWID;
