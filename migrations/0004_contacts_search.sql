-- Full-text search over contacts and the tag index, kept in step with every write by triggers, so no
-- writer (form, import, merge, bulk edit) can forget them. Written by hand: drizzle cannot express
-- virtual tables or triggers.
--
-- contacts_fts keeps its own copy of the searched text, keyed by contacts.seq. The phone is also indexed
-- as bare digits, so "5551234567" finds "(555) 123-4567". The tokenizer folds case and diacritics, and
-- the prefix indexes make search-as-you-type prefix queries cheap.
CREATE VIRTUAL TABLE `contacts_fts` USING fts5(
	name, email, phone, location, notes, tags, company,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
--> statement-breakpoint
CREATE TRIGGER `contacts_ai` AFTER INSERT ON `contacts` BEGIN
	INSERT INTO contacts_fts(rowid, name, email, phone, location, notes, tags, company) VALUES (
		new.seq, new.name, coalesce(new.email, ''),
		coalesce(new.phone, '') || ' ' || replace(replace(replace(replace(replace(replace(coalesce(new.phone, ''), '-', ''), ' ', ''), '(', ''), ')', ''), '.', ''), '+', ''),
		coalesce(new.location, ''), coalesce(new.notes, ''), new.tags, coalesce(new.company, '')
	);
	INSERT OR IGNORE INTO contact_tags(user_id, contact_id, tag) SELECT new.user_id, new.id, value FROM json_each(new.tags);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_ad` AFTER DELETE ON `contacts` BEGIN
	DELETE FROM contacts_fts WHERE rowid = old.seq;
	DELETE FROM contact_tags WHERE contact_id = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_au_search` AFTER UPDATE OF name, email, phone, location, notes, tags, company ON `contacts` BEGIN
	DELETE FROM contacts_fts WHERE rowid = old.seq;
	INSERT INTO contacts_fts(rowid, name, email, phone, location, notes, tags, company) VALUES (
		new.seq, new.name, coalesce(new.email, ''),
		coalesce(new.phone, '') || ' ' || replace(replace(replace(replace(replace(replace(coalesce(new.phone, ''), '-', ''), ' ', ''), '(', ''), ')', ''), '.', ''), '+', ''),
		coalesce(new.location, ''), coalesce(new.notes, ''), new.tags, coalesce(new.company, '')
	);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_au_tags` AFTER UPDATE OF tags ON `contacts` WHEN old.tags IS NOT new.tags BEGIN
	DELETE FROM contact_tags WHERE contact_id = old.id;
	INSERT OR IGNORE INTO contact_tags(user_id, contact_id, tag) SELECT new.user_id, new.id, value FROM json_each(new.tags);
END;
