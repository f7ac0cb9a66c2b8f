import { bigint, customType, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { id, ts } from './columns.ts';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** Messages written through the public contact form (no IP stored: the rate limit keeps it in memory). */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    topic: text('topic').notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: ['nuovo', 'in_lavorazione', 'chiuso'] })
      .notNull()
      .default('nuovo'),
    outboxId: bigint('outbox_id', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt)],
);

/** Proof of each cookie choice (GDPR 7(1)): pseudonymous id, policy version, choices, time. No IP. */
export const consentRecords = pgTable(
  'consent_records',
  {
    id: id(),
    anonymousId: uuid('anonymous_id').notNull(),
    policyVersion: text('policy_version').notNull(),
    decision: text('decision', { enum: ['accept_all', 'reject', 'custom'] }).notNull(),
    enabledIds: jsonb('enabled_ids').$type<string[]>().notNull(),
    decidedAt: ts('decided_at').notNull(),
    recordedAt: ts('recorded_at').notNull().defaultNow(),
  },
  (t) => [index('consent_records_anonymous_idx').on(t.anonymousId, t.recordedAt)],
);

/** Published documents of the programme, with their PDF content. */
export const publicDocuments = pgTable(
  'public_documents',
  {
    id: id(),
    slug: text('slug').notNull().unique(),
    category: text('category', { enum: ['regolamenti', 'privacy', 'guide'] }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull().default('application/pdf'),
    /** Legacy: the PDF of rows written before decision 030 (read until moved to the file store). */
    content: bytea('content'),
    /** The PDF in the file store (decision 030). */
    fileKey: text('file_key'),
    sha256: text('sha256'),
    sizeBytes: integer('size_bytes').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    publishedAt: ts('published_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('public_documents_category_idx').on(t.category, t.sortOrder)],
);
