-- A user's page of notices is chosen off this index alone, newest first with the kind breaking
-- ties (the page's order) and the muted kinds left out, reading no row it passes over: a user
-- with thousands of notices spent a row read on each.
DROP INDEX notices_recipient;
CREATE INDEX notices_recipient ON notices (recipient, position, kind);
