-- Fired timers are deleted from now on, and an ended agreement's live timers with it (issue 19:
-- storage per agreement). The rows older builds kept after firing go too. Keep in step with
-- ../sqlite/V016__fired_timers_removed.sql.
DELETE FROM timers WHERE done_at IS NOT NULL;
DELETE FROM timers
 WHERE dead_at IS NULL
   AND agreement_id IN (SELECT id FROM agreements WHERE state IN ('closed', 'rejected', 'expired'));
