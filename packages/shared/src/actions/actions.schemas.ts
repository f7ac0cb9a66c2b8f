import { z } from 'zod';
import {
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  QueryBooleanSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { ADHESION_STATES, PROVINCES, REGIONS } from '../registry/registry.constants.ts';
import { REVIEW_STATES } from '../vocabulary/review.constants.ts';
import {
  ACTION_BULK_MAX,
  ACTION_EVIDENCE,
  ACTION_EVIDENCE_FILE_MAX_BYTES,
  ACTION_EVIDENCE_TEXT_MAX,
  ACTION_STATES,
  ACTION_TARGETS,
} from './action.constants.ts';

/** Italian messages of the actions area, shared by the API and the web. */
export const ACTION_MESSAGES = {
  modelNotFound: 'Modello di azione non trovato.',
  notFound: 'Azione non trovata.',
  title: 'Inserisci un titolo da 3 a 200 caratteri.',
  description: 'La descrizione può contenere al massimo 2000 caratteri.',
  category: 'Inserisci una categoria da 2 a 100 caratteri.',
  target: 'Scegli a chi si rivolge il modello: istituto, plesso o insegnante.',
  duration: 'Indica la durata in giorni: un numero intero da 1 a 365.',
  evidence: 'Scegli la prova richiesta: nessuna, testo o file.',
  model: 'Scegli il modello di azione.',
  modelInactive: 'Il modello è disattivato: riattivalo prima di assegnare azioni.',
  dueOn: 'Inserisci una scadenza valida (gg/mm/aaaa), da oggi in poi.',
  targets: 'Indica i destinatari: un elenco oppure un filtro, non entrambi.',
  unknownTargets: 'Tra i destinatari indicati ce n’è qualcuno che non esiste.',
  filterNotForTarget: 'Questo filtro non vale per i destinatari del modello scelto.',
  rejectedTeachers: 'Gli insegnanti con la registrazione respinta non ricevono azioni.',
  notApprovedTeachers:
    'Tra gli insegnanti indicati c’è qualcuno la cui registrazione non è approvata: le azioni raggiungono solo insegnanti approvati.',
  tooMany: `Al massimo ${ACTION_BULK_MAX.toLocaleString('it-IT')} azioni per volta: restringi il filtro.`,
  countChanged:
    'Il numero dei destinatari è cambiato dal conteggio che hai confermato: controlla di nuovo prima di procedere.',
  illegalTransition: 'L’azione non può passare a questo stato dal suo stato attuale.',
  evidenceText: `Descrivi quanto fatto (al massimo ${ACTION_EVIDENCE_TEXT_MAX} caratteri).`,
  evidenceFileRequired: 'Questo modello richiede un file come prova: caricalo per completare l’azione.',
  evidenceFileNotRequired: 'Questo modello non richiede un file come prova.',
  evidenceEmpty: 'Il file caricato è vuoto: scegli un PDF o un’immagine PNG o JPEG.',
  evidenceType: 'Il file non è un PDF, un PNG o un JPEG: carica un documento in uno di questi formati.',
  evidenceTooLarge: `Il file supera la dimensione massima di ${ACTION_EVIDENCE_FILE_MAX_BYTES / 1_048_576} MB.`,
  noEvidence: 'Questa azione non ha un file di prova.',
  note: 'Scrivi una nota che spieghi cosa correggere (al massimo 2000 caratteri).',
} as const;

const isoDateTime = z.string();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

// --- Models ---

export const ActionModelSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  target: z.enum(ACTION_TARGETS),
  defaultDurationDays: z.number().int(),
  evidence: z.enum(ACTION_EVIDENCE),
  active: z.boolean(),
  /** Actions created from the model. */
  actionCount: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type ActionModel = z.infer<typeof ActionModelSchema>;

export const ACTION_MODEL_SORTS = ['title', 'category', 'target', 'createdAt'] as const;
export const ActionModelFiltersSchema = z.object({
  q: SearchTextSchema,
  target: optionalEnum(ACTION_TARGETS, 'Destinatari'),
  active: QueryBooleanSchema,
  sort: sortSchema(ACTION_MODEL_SORTS),
});
export type ActionModelFilters = z.output<typeof ActionModelFiltersSchema>;
export const ActionModelListQuerySchema = ActionModelFiltersSchema.extend(PaginationSchema.shape);
export type ActionModelListQuery = z.output<typeof ActionModelListQuerySchema>;
export const ActionModelListResponseSchema = listResponseSchema(ActionModelSchema);

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
const title = z.preprocess(
  trimmed,
  z.string({ error: ACTION_MESSAGES.title }).min(3, ACTION_MESSAGES.title).max(200, ACTION_MESSAGES.title),
);
const description = z.preprocess(
  trimmed,
  z.string({ error: ACTION_MESSAGES.description }).max(2000, ACTION_MESSAGES.description),
);
const category = z.preprocess(
  trimmed,
  z
    .string({ error: ACTION_MESSAGES.category })
    .min(2, ACTION_MESSAGES.category)
    .max(100, ACTION_MESSAGES.category),
);
const duration = z
  .number({ error: ACTION_MESSAGES.duration })
  .int(ACTION_MESSAGES.duration)
  .min(1, ACTION_MESSAGES.duration)
  .max(365, ACTION_MESSAGES.duration);
const evidence = z.enum(ACTION_EVIDENCE, { error: ACTION_MESSAGES.evidence });

export const ActionModelCreateSchema = z
  .object({
    title,
    description: description.default(''),
    category,
    target: z.enum(ACTION_TARGETS, { error: ACTION_MESSAGES.target }),
    defaultDurationDays: duration,
    evidence,
  })
  .strict();
export type ActionModelCreate = z.output<typeof ActionModelCreateSchema>;

/** A model's target cannot change (its actions point at that kind of record); a model is deactivated, never deleted. */
export const ActionModelUpdateSchema = z
  .object({
    title: title.optional(),
    description: description.optional(),
    category: category.optional(),
    defaultDurationDays: duration.optional(),
    evidence: evidence.optional(),
    active: z.boolean({ error: 'Indica se il modello è attivo.' }).optional(),
  })
  .strict();
export type ActionModelUpdate = z.output<typeof ActionModelUpdateSchema>;

// --- Actions ---

export const ActionSummarySchema = z.object({
  id: z.number().int(),
  modelId: z.number().int(),
  modelTitle: z.string(),
  category: z.string(),
  evidence: z.enum(ACTION_EVIDENCE),
  target: z.enum(ACTION_TARGETS),
  /** The institute's, plesso's or teacher's id. */
  targetId: z.number().int(),
  targetName: z.string(),
  /** Codice meccanografico (istituto, plesso) or e-mail (insegnante). */
  targetCode: z.string(),
  region: z.string().nullable(),
  province: z.string().nullable(),
  dueOn: isoDate,
  state: z.enum(ACTION_STATES),
  /** Past its due date and not completed yet. */
  overdue: z.boolean(),
  completedAt: isoDateTime.nullable(),
  verifiedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export type ActionSummary = z.infer<typeof ActionSummarySchema>;

const PersonSchema = z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() });

export const ActionDetailSchema = ActionSummarySchema.extend({
  description: z.string(),
  evidenceText: z.string().nullable(),
  evidenceFile: z
    .object({ name: z.string(), contentType: z.string(), sizeBytes: z.number().int() })
    .nullable(),
  staffNote: z.string().nullable(),
  assignedBy: PersonSchema.nullable(),
  completedBy: PersonSchema.nullable(),
  verifiedBy: PersonSchema.nullable(),
  updatedAt: isoDateTime,
});
export type ActionDetail = z.infer<typeof ActionDetailSchema>;

const optionalId = (label: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: `${label} non valido.` })
      .int(`${label} non valido.`)
      .positive(`${label} non valido.`)
      .max(Number.MAX_SAFE_INTEGER)
      .optional(),
  );

export const ACTION_SORTS = ['dueOn', 'state', 'targetName', 'modelTitle', 'createdAt'] as const;
export const ActionFiltersSchema = z.object({
  q: SearchTextSchema,
  modelId: optionalId('Modello'),
  state: optionalEnum(ACTION_STATES, 'Stato'),
  target: optionalEnum(ACTION_TARGETS, 'Destinatari'),
  region: optionalEnum(REGIONS, 'Regione'),
  province: optionalEnum(PROVINCES, 'Provincia'),
  overdue: QueryBooleanSchema,
  sort: sortSchema(ACTION_SORTS),
});
export const ActionListQuerySchema = ActionFiltersSchema.extend(PaginationSchema.shape);
export type ActionFilters = z.output<typeof ActionFiltersSchema>;
export type ActionListQuery = z.output<typeof ActionListQuerySchema>;
export const ActionListResponseSchema = listResponseSchema(ActionSummarySchema);

// --- Bulk assignment ---

/**
 * Which targets a bulk assignment names, by the model's target: institutes by region, province,
 * adhesion state; plessi by region, province, participation; teachers by their plesso's region and
 * province and the review state of their registration. A filter that does not apply to the model's
 * target is refused (422).
 */
export const ActionTargetFilterSchema = z
  .object({
    q: z.preprocess(
      trimmed,
      z.string().max(100, 'La ricerca può contenere al massimo 100 caratteri.').optional(),
    ),
    region: z.enum(REGIONS, { error: 'Regione non valida.' }).optional(),
    province: z.enum(PROVINCES, { error: 'Provincia non valida.' }).optional(),
    adhesionState: z.enum(ADHESION_STATES, { error: 'Stato di adesione non valido.' }).optional(),
    participating: z.boolean({ error: 'Indica se il plesso partecipa.' }).optional(),
    reviewState: z.enum(REVIEW_STATES, { error: 'Stato della registrazione non valido.' }).optional(),
  })
  .strict();
export type ActionTargetFilter = z.output<typeof ActionTargetFilterSchema>;

const bulkShape = {
  modelId: z
    .number({ error: ACTION_MESSAGES.model })
    .int(ACTION_MESSAGES.model)
    .positive(ACTION_MESSAGES.model),
  /** An explicit list of target ids (institutes, plessi or teachers' user ids, by the model's target). */
  targetIds: z
    .array(z.number().int().positive(), { error: 'Elenco di destinatari non valido.' })
    .min(1, 'Scegli almeno un destinatario.')
    .max(ACTION_BULK_MAX, ACTION_MESSAGES.tooMany)
    .optional(),
  filter: ActionTargetFilterSchema.optional(),
};

function oneWayToName(body: { targetIds?: unknown; filter?: unknown }, ctx: z.RefinementCtx) {
  if ((body.targetIds === undefined) === (body.filter === undefined))
    ctx.addIssue({ code: 'custom', path: ['targetIds'], message: ACTION_MESSAGES.targets });
}

export const ActionBulkPreviewSchema = z.object(bulkShape).strict().superRefine(oneWayToName);
export type ActionBulkPreviewBody = z.output<typeof ActionBulkPreviewSchema>;

/**
 * Apply a bulk assignment. `expectedCount` is the `matched` of the preview the user confirmed: when the
 * filter now names another number of targets the request is refused (409) and nothing is written.
 * Idempotent: a target that already has an action from the model keeps it (a retry creates nothing more).
 */
export const ActionBulkSchema = z
  .object({
    ...bulkShape,
    expectedCount: z.number({ error: 'Manca il numero di destinatari confermato.' }).int().nonnegative(),
    /** `YYYY-MM-DD`; default: today (Rome) plus the model's duration. */
    dueOn: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string({ error: ACTION_MESSAGES.dueOn })
        .regex(/^\d{4}-\d{2}-\d{2}$/, ACTION_MESSAGES.dueOn)
        .optional(),
    ),
  })
  .strict()
  .superRefine(oneWayToName);
export type ActionBulkBody = z.output<typeof ActionBulkSchema>;

export const ActionBulkPreviewResultSchema = z.object({
  /** Targets the request names. */
  matched: z.number().int(),
  /** Of those, the ones that already have an action from this model. */
  existing: z.number().int(),
  /** The actions a confirmation would create. */
  toCreate: z.number().int(),
  /** The default due date (today plus the model's duration). */
  dueOn: isoDate,
});
export type ActionBulkPreviewResult = z.infer<typeof ActionBulkPreviewResultSchema>;

export const ActionBulkResultSchema = z.object({
  matched: z.number().int(),
  created: z.number().int(),
  existing: z.number().int(),
  dueOn: isoDate,
});
export type ActionBulkResult = z.infer<typeof ActionBulkResultSchema>;

// --- Transitions ---

/** The target's moves: start (`in_corso`) and complete (`completata`, with text evidence when the model asks for it). */
export const ActionTransitionSchema = z
  .object({
    to: z.enum(['in_corso', 'completata'], { error: 'Scegli lo stato: in corso o completata.' }),
    evidenceText: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || undefined : v),
      z
        .string({ error: ACTION_MESSAGES.evidenceText })
        .max(ACTION_EVIDENCE_TEXT_MAX, ACTION_MESSAGES.evidenceText)
        .optional(),
    ),
  })
  .strict();
export type ActionTransitionBody = z.output<typeof ActionTransitionSchema>;

/** Staff decide on a completed action: verify it, or send it back (`in_corso`) with a note. */
export const ActionReviewSchema = z
  .object({
    to: z.enum(['verificata', 'in_corso'], { error: 'Scegli se verificare l’azione o rimandarla indietro.' }),
    note: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || undefined : v),
      z.string({ error: ACTION_MESSAGES.note }).max(2000, ACTION_MESSAGES.note).optional(),
    ),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.to === 'in_corso' && !body.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: ACTION_MESSAGES.note });
  });
export type ActionReviewBody = z.output<typeof ActionReviewSchema>;

/** The query of a file upload (the body is the file itself: PDF, PNG or JPEG). */
export const ActionEvidenceUploadQuerySchema = z
  .object({
    filename: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || undefined : v),
      z.string().max(200, 'Il nome del file può contenere al massimo 200 caratteri.').optional(),
    ),
  })
  .strict();

/** A target's `/portale` home: their open actions (due first) and the recently completed ones. */
export const MyActionsResponseSchema = z.object({
  open: z.array(ActionDetailSchema),
  done: z.array(ActionSummarySchema),
});
export type MyActionsResponse = z.infer<typeof MyActionsResponseSchema>;
