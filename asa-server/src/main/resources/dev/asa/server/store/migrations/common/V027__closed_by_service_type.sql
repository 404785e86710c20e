-- The market median of a service type reads its latest CLOSED agreements, and nothing reads the
-- others by service type and state (issue 59: pages written per lifecycle). V002's index held an
-- entry for every agreement in every state, so each change of state moved one: on SQLite 8 of the
-- 75 pages a lifecycle wrote. An index of the CLOSED ones alone is written once, as one closes.
-- The query names the state as a literal (AgreementStore.recentClosed): a partial index is used
-- only where the WHERE clause implies its own.
DROP INDEX agreements_by_service_type_state;
CREATE INDEX agreements_closed_by_service_type ON agreements (service_type, row_seq)
  WHERE state = 'closed';
