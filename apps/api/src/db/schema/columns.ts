import { bigint, timestamp } from 'drizzle-orm/pg-core';

/** Primary key of every table: a positive bigint identity (architecture §0). */
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

/** A UTC instant (timestamptz), read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
