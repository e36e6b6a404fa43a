-- +goose Up
-- How a SIP account asks for the floor (issue 34, docs/sip.md "Talk keys and voice"): 'auto' with its phone's talk
-- keys when it offers them and by voice activity when it does not, 'keys' with the keys only, 'voice' by voice
-- activity only (a radio gateway whose carrier detect arrives as audio, even one that offers keys). Directory's.
ALTER TABLE accounts ADD COLUMN sip_talk TEXT NOT NULL DEFAULT 'auto';

-- +goose Down
ALTER TABLE accounts DROP COLUMN sip_talk;
