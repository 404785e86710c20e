-- The market median of a service type is computed from its latest CLOSED agreements
-- (negotiation price bounds): an index scan, newest first, however many agreements there are.
CREATE INDEX agreements_by_service_type_state ON agreements (service_type, state, row_seq);
