import { and, asc, eq, gt, gte, lt, sql, type SQL } from 'drizzle-orm';
import type {
  BookingListQuery,
  BookingSummary,
  PublicSlot,
  SlotListQuery,
  SlotSummary,
} from '@portale/shared/bookings';
import { bookings, bookingSlots } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  countAll,
  likeLiteral,
  orderByOf,
  paginate,
  rawCount,
  rawRows,
  rowValue,
  type Page,
} from '../../lib/list.ts';

export type SlotRow = typeof bookingSlots.$inferSelect;

export function toPublicSlot(
  row: Pick<
    SlotRow,
    'id' | 'title' | 'description' | 'startsAt' | 'endsAt' | 'place' | 'onlineUrl' | 'capacity' | 'booked'
  >,
): PublicSlot {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    place: row.place,
    onlineUrl: row.onlineUrl,
    capacity: row.capacity,
    freePlaces: Math.max(0, row.capacity - row.booked),
  };
}

export function toSlotSummary(row: SlotRow): SlotSummary {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    place: row.place,
    onlineUrl: row.onlineUrl,
    capacity: row.capacity,
    booked: row.booked,
    published: row.published,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Published slots that have not started, soonest first (full ones included: the page shows them as full). */
export async function listBookableSlots(db: DbOrTx, now: Date): Promise<PublicSlot[]> {
  const rows = await db
    .select()
    .from(bookingSlots)
    .where(and(eq(bookingSlots.published, true), gt(bookingSlots.startsAt, now)))
    .orderBy(asc(bookingSlots.startsAt), asc(bookingSlots.id))
    .limit(200);
  return rows.map(toPublicSlot);
}

/**
 * Takes one place of a bookable slot, atomically: the row is updated only while `booked < capacity`
 * (PostgreSQL re-checks the condition on the latest row version after waiting for a concurrent
 * update), so however many requests race for the last places, exactly that many get one.
 * `undefined`: no place was taken (full, unknown, unpublished or started: see `findSlotForBooking`).
 */
export async function takePlace(tx: DbOrTx, slotId: number, now: Date): Promise<SlotRow | undefined> {
  const [row] = await tx
    .update(bookingSlots)
    .set({ booked: sql`${bookingSlots.booked} + 1` })
    .where(
      and(
        eq(bookingSlots.id, slotId),
        eq(bookingSlots.published, true),
        gt(bookingSlots.startsAt, now),
        lt(bookingSlots.booked, bookingSlots.capacity),
      ),
    )
    .returning();
  return row;
}

/** A slot the public may book (published, not started), full or not. */
export async function findBookableSlot(db: DbOrTx, slotId: number, now: Date): Promise<SlotRow | undefined> {
  const [row] = await db
    .select()
    .from(bookingSlots)
    .where(
      and(eq(bookingSlots.id, slotId), eq(bookingSlots.published, true), gt(bookingSlots.startsAt, now)),
    );
  return row;
}

export async function hasConfirmedBooking(db: DbOrTx, slotId: number, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.slotId, slotId),
        eq(sql`lower(${bookings.email})`, email.toLowerCase()),
        eq(bookings.state, 'confermata'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertBooking(
  tx: DbOrTx,
  values: {
    slotId: number;
    name: string;
    email: string;
    institute: string | null;
    cancelTokenHash: string;
    createdAt: Date;
  },
): Promise<number> {
  const [row] = await tx.insert(bookings).values(values).returning({ id: bookings.id });
  return row!.id;
}

/** A confirmed booking by its token hash, with its slot; locks the booking row when `forUpdate`. */
export async function findConfirmedBookingByTokenHash(db: DbOrTx, tokenHash: string, forUpdate = false) {
  const query = db
    .select({ booking: bookings, slot: bookingSlots })
    .from(bookings)
    .innerJoin(bookingSlots, eq(bookingSlots.id, bookings.slotId))
    .where(and(eq(bookings.cancelTokenHash, tokenHash), eq(bookings.state, 'confermata')));
  const [row] = forUpdate ? await query.for('update', { of: bookings }) : await query;
  return row;
}

/** Cancels a confirmed booking and gives its place back, in the caller's transaction. */
export async function cancelBookingAndFreePlace(
  tx: DbOrTx,
  bookingId: number,
  slotId: number,
  now: Date,
): Promise<boolean> {
  const cancelled = await tx
    .update(bookings)
    .set({ state: 'annullata', cancelledAt: now })
    .where(and(eq(bookings.id, bookingId), eq(bookings.state, 'confermata')))
    .returning({ id: bookings.id });
  if (cancelled.length === 0) return false;
  await tx
    .update(bookingSlots)
    .set({ booked: sql`${bookingSlots.booked} - 1` })
    .where(and(eq(bookingSlots.id, slotId), gt(bookingSlots.booked, 0)));
  return true;
}

/** The confirmed bookings of a slot (who is told when it changes), oldest first. */
export function confirmedBookingsOfSlot(tx: DbOrTx, slotId: number) {
  return tx
    .select({ id: bookings.id, name: bookings.name, email: bookings.email, createdAt: bookings.createdAt })
    .from(bookings)
    .where(and(eq(bookings.slotId, slotId), eq(bookings.state, 'confermata')))
    .orderBy(bookings.id);
}

// ---- Staff ----

const SLOT_SORT_COLUMNS = {
  startsAt: bookingSlots.startsAt,
  title: bookingSlots.title,
  capacity: bookingSlots.capacity,
  booked: bookingSlots.booked,
};

function slotWhere(query: Omit<SlotListQuery, 'page' | 'pageSize' | 'sort'>, now: Date): SQL | undefined {
  const words = (query.q ?? '').trim().split(/\s+/).filter(Boolean);
  return and(
    ...words.map(
      (w) =>
        sql`(${bookingSlots.title} ilike ${`%${likeLiteral(w)}%`} or coalesce(${bookingSlots.place}, '') ilike ${`%${likeLiteral(w)}%`})`,
    ),
    query.period === 'upcoming' ? gte(bookingSlots.endsAt, now) : undefined,
    query.period === 'past' ? lt(bookingSlots.endsAt, now) : undefined,
    query.published === undefined ? undefined : eq(bookingSlots.published, query.published),
  );
}

type SlotFilters = Omit<SlotListQuery, 'page' | 'pageSize' | 'sort'> & { sort?: SlotListQuery['sort'] };

/** The filtered, sorted slots: the list's page and the export's rows. */
export function slotListQuery(db: DbOrTx, filters: SlotFilters, now: Date) {
  return db
    .select()
    .from(bookingSlots)
    .where(slotWhere(filters, now))
    .orderBy(
      ...orderByOf(
        filters.sort ?? { column: 'startsAt', direction: 'asc' },
        SLOT_SORT_COLUMNS,
        bookingSlots.id,
      ),
    );
}

export async function countSlots(db: DbOrTx, filters: SlotFilters, now: Date): Promise<number> {
  return rawCount(db, db.select({ n: countAll }).from(bookingSlots).where(slotWhere(filters, now)));
}

/** A slot row of the list as the driver returns it (raw values, snake_case names): its page and its export. */
export function slotFromRaw(row: Record<string, unknown>): SlotSummary {
  return {
    id: rowValue.int(row.id),
    title: rowValue.text(row.title),
    description: rowValue.text(row.description),
    startsAt: rowValue.iso(row.starts_at)!,
    endsAt: rowValue.iso(row.ends_at)!,
    place: rowValue.textOrNull(row.place),
    onlineUrl: rowValue.textOrNull(row.online_url),
    capacity: rowValue.int(row.capacity),
    booked: rowValue.int(row.booked),
    published: rowValue.bool(row.published),
    updatedAt: rowValue.iso(row.updated_at)!,
  };
}

export function listSlots(db: DbOrTx, query: SlotListQuery, now: Date): Promise<Page<SlotSummary>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, slotListQuery(db, query, now).limit(limit).offset(offset))).map(slotFromRaw),
    () => countSlots(db, query, now),
    query.page,
    query.pageSize,
  );
}

export async function findSlot(db: DbOrTx, slotId: number, forUpdate = false): Promise<SlotRow | undefined> {
  const query = db.select().from(bookingSlots).where(eq(bookingSlots.id, slotId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export type SlotValues = Pick<
  SlotRow,
  'title' | 'description' | 'startsAt' | 'endsAt' | 'place' | 'onlineUrl' | 'capacity' | 'published'
>;

export async function insertSlot(
  tx: DbOrTx,
  values: SlotValues,
  userId: number | null,
  now: Date,
): Promise<SlotRow> {
  const [row] = await tx
    .insert(bookingSlots)
    .values({ ...values, createdByUserId: userId, updatedByUserId: userId, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function updateSlot(
  tx: DbOrTx,
  slotId: number,
  changes: Partial<SlotValues>,
  userId: number | null,
  now: Date,
): Promise<SlotRow> {
  const [row] = await tx
    .update(bookingSlots)
    .set({ ...changes, updatedByUserId: userId, updatedAt: now })
    .where(eq(bookingSlots.id, slotId))
    .returning();
  return row!;
}

const bookingFields = aliased({
  id: bookings.id,
  slotId: bookings.slotId,
  name: bookings.name,
  email: bookings.email,
  institute: bookings.institute,
  state: bookings.state,
  createdAt: bookings.createdAt,
  cancelledAt: bookings.cancelledAt,
});

const BOOKING_SORT_COLUMNS = {
  createdAt: bookings.createdAt,
  name: bookings.name,
  email: bookings.email,
  state: bookings.state,
};

export function toBookingSummary(row: Record<string, unknown>): BookingSummary {
  return {
    id: rowValue.int(row.id),
    slotId: rowValue.int(row.slotId),
    name: rowValue.text(row.name),
    email: rowValue.text(row.email),
    institute: rowValue.textOrNull(row.institute),
    state: row.state as BookingSummary['state'],
    createdAt: rowValue.iso(row.createdAt)!,
    cancelledAt: rowValue.iso(row.cancelledAt),
  };
}

type BookingFilters = Omit<BookingListQuery, 'page' | 'pageSize' | 'sort'> & {
  sort?: BookingListQuery['sort'];
};

function bookingWhere(slotId: number, filters: BookingFilters): SQL | undefined {
  const words = (filters.q ?? '').trim().split(/\s+/).filter(Boolean);
  return and(
    eq(bookings.slotId, slotId),
    ...words.map(
      (w) =>
        sql`(${bookings.name} ilike ${`%${likeLiteral(w)}%`} or ${bookings.email} ilike ${`%${likeLiteral(w)}%`} or coalesce(${bookings.institute}, '') ilike ${`%${likeLiteral(w)}%`})`,
    ),
    filters.state ? eq(bookings.state, filters.state) : undefined,
  );
}

/** The filtered, sorted bookings of a slot: the list's page and the export's rows. */
export function bookingListQuery(db: DbOrTx, slotId: number, filters: BookingFilters) {
  return db
    .select(bookingFields)
    .from(bookings)
    .where(bookingWhere(slotId, filters))
    .orderBy(
      ...orderByOf(
        filters.sort ?? { column: 'createdAt', direction: 'asc' },
        BOOKING_SORT_COLUMNS,
        bookings.id,
      ),
    );
}

export async function countBookings(db: DbOrTx, slotId: number, filters: BookingFilters): Promise<number> {
  return rawCount(db, db.select({ n: countAll }).from(bookings).where(bookingWhere(slotId, filters)));
}

export function listBookings(
  db: DbOrTx,
  slotId: number,
  query: BookingListQuery,
): Promise<Page<BookingSummary>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, bookingListQuery(db, slotId, query).limit(limit).offset(offset))).map(
        toBookingSummary,
      ),
    () => countBookings(db, slotId, query),
    query.page,
    query.pageSize,
  );
}

/** Demo data: inserts slots (and their confirmed bookings) unless a slot with the same title exists. */
export async function insertDemoSlotOnce(
  db: DbOrTx,
  slot: SlotValues & {
    bookings: { name: string; email: string; institute: string | null; cancelTokenHash: string }[];
  },
  now: Date,
): Promise<void> {
  const [existing] = await db
    .select({ id: bookingSlots.id })
    .from(bookingSlots)
    .where(eq(bookingSlots.title, slot.title))
    .limit(1);
  if (existing) return;
  const { bookings: people, ...values } = slot;
  const [row] = await db
    .insert(bookingSlots)
    .values({ ...values, booked: people.length, createdAt: now, updatedAt: now })
    .returning({ id: bookingSlots.id });
  if (people.length > 0)
    await db.insert(bookings).values(people.map((p) => ({ ...p, slotId: row!.id, createdAt: now })));
}
