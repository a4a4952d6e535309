-- The warning before a contact is saved with another contact's phone number looks the number up by its digits
-- (modules/contacts/duplicates.server.ts possibleDuplicates): this indexes that expression. Written by hand: drizzle-kit
-- splits an expression with commas into columns.
CREATE INDEX `contacts_user_phone_digits` ON `contacts` (`user_id`,replace(replace(replace(replace(replace(replace("phone", '-', ''), ' ', ''), '(', ''), ')', ''), '.', ''), '+', ''));
