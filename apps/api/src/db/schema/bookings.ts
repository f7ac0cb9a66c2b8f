import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { id, ts } from './columns.ts';

const userRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => users.id, { onDelete: 'set null' });

/**
 * A bookable appointment of the programme (issue 12). `booked` counts the confirmed bookings and is
 * changed only in the transaction that confirms or cancels one, by a conditional update
 * (`booked < capacity`): the check constraint makes an overbooking impossible even for a bug.
 */
export const bookingSlots = pgTable(
  'booking_slots',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    /** A place (address, room) or an online link: at least one. */
    place: text('place'),
    onlineUrl: text('online_url'),
    capacity: integer('capacity').notNull(),
    booked: integer('booked').notNull().default(0),
    published: boolean('published').notNull().default(false),
    createdByUserId: userRef('created_by_user_id'),
    updatedByUserId: userRef('updated_by_user_id'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('booking_slots_starts_idx').on(t.startsAt, t.id),
    check(
      'booking_slots_capacity_check',
      sql`${t.capacity} > 0 and ${t.booked} >= 0 and ${t.booked} <= ${t.capacity}`,
    ),
    check('booking_slots_time_check', sql`${t.endsAt} > ${t.startsAt}`),
    check('booking_slots_where_check', sql`${t.place} is not null or ${t.onlineUrl} is not null`),
  ],
);

/**
 * One person's booking of a slot. The cancel token is e-mailed and only its SHA-256 is stored;
 * the institute is free text (optional): see docs/decisions/014.
 */
export const bookings = pgTable(
  'bookings',
  {
    id: id(),
    slotId: bigint('slot_id', { mode: 'number' })
      .notNull()
      .references(() => bookingSlots.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    institute: text('institute'),
    state: text('state', { enum: ['confermata', 'annullata'] })
      .notNull()
      .default('confermata'),
    cancelTokenHash: text('cancel_token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull(),
    cancelledAt: ts('cancelled_at'),
  },
  (t) => [
    index('bookings_slot_idx').on(t.slotId, t.createdAt),
    // One confirmed booking per address and slot.
    uniqueIndex('bookings_slot_email_confirmed_idx')
      .on(t.slotId, sql`lower(${t.email})`)
      .where(sql`${t.state} = 'confermata'`),
  ],
);
