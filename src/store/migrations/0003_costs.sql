-- Costs in the report rollup: exact nano-dollars of the priced
-- messages, how many were priced, and the tokens of those that were not
-- (an unknown model's tokens are kept and shown, never costed 0).
ALTER TABLE usage_rollup ADD COLUMN priced_messages INTEGER NOT NULL DEFAULT 0;
ALTER TABLE usage_rollup ADD COLUMN cost_nanousd INTEGER NOT NULL DEFAULT 0;
ALTER TABLE usage_rollup ADD COLUMN unpriced_tokens INTEGER NOT NULL DEFAULT 0;
