import type { ActionEvidence, ActionState, ActionTarget } from '@portale/shared/actions';
import { dateToRomeLocal } from '@portale/shared/bookings';
import type { DbOrTx } from '../../db/transaction.ts';
import * as repo from './actions.repository.ts';
import * as seedRepo from './actions-seed.repository.ts';

const DAY = 86_400_000;
type Extra = Partial<Parameters<typeof repo.insertAction>[1]>;

/** The demo models: one per target and per kind of evidence. */
export const DEMO_ACTION_MODELS: {
  title: string;
  description: string;
  category: string;
  target: ActionTarget;
  defaultDurationDays: number;
  evidence: ActionEvidence;
}[] = [
  {
    title: 'Nomina del referente per l’indagine',
    description:
      'Indicare il nome del docente referente che segue l’indagine nell’istituto e la data della nomina.',
    category: 'Organizzazione',
    target: 'istituto',
    defaultDurationDays: 30,
    evidence: 'testo',
  },
  {
    title: 'Delibera del collegio dei docenti',
    description: 'Caricare la delibera (PDF o immagine) con cui il collegio aderisce al programma.',
    category: 'Adesione',
    target: 'istituto',
    defaultDurationDays: 45,
    evidence: 'file',
  },
  {
    title: 'Calendario delle somministrazioni nel plesso',
    description:
      'Concordare con i docenti del plesso le giornate in cui le classi rispondono al questionario.',
    category: 'Indagine',
    target: 'plesso',
    defaultDurationDays: 20,
    evidence: 'nessuna',
  },
  {
    title: 'Formazione online sul questionario',
    description: 'Seguire il modulo di formazione online e riportare in breve cosa si è appreso.',
    category: 'Formazione',
    target: 'insegnante',
    defaultDurationDays: 15,
    evidence: 'testo',
  },
];

const rome = (at: Date) => dateToRomeLocal(at).slice(0, 10);
const PNG_EVIDENCE = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000a49444154789c6300010000050001' +
    '0d0a2db40000000049454e44ae426082',
  'hex',
);

/**
 * Demo actions (issue 10): the models above and actions in every state, some overdue, assigned to the
 * demo principal's institute and its plessi, to other demo institutes, to the demo teacher and the demo
 * teachers. Idempotent: models are found by title, actions are unique per model and target.
 */
export async function seedDemoActions(db: DbOrTx, now: Date): Promise<{ models: number; actions: number }> {
  const staffId = await seedRepo.userIdByEmail(db, 'sylla@demo.test');
  const models = new Map<string, number>();
  for (const model of DEMO_ACTION_MODELS) {
    models.set(
      model.title,
      (await repo.findModelByTitle(db, model.title)) ??
        (await repo.insertModel(db, model, null, new Date(now.getTime() - 40 * DAY))),
    );
  }
  const [institute, filed, site, teacher] = DEMO_ACTION_MODELS.map((m) => models.get(m.title)!) as [
    number,
    number,
    number,
    number,
  ];
  let created = 0;
  const add = async (
    modelId: number,
    target: ActionTarget,
    targetId: number | undefined,
    state: ActionState,
    dueInDays: number,
    extra: Extra = {},
  ) => {
    if (targetId === undefined) return;
    const assignedAt = new Date(now.getTime() - 20 * DAY);
    const doneAt = new Date(now.getTime() - 2 * DAY);
    const completed = state === 'completata' || state === 'verificata';
    const id = await repo.insertAction(db, {
      modelId,
      target,
      targetId,
      dueOn: rome(new Date(now.getTime() + dueInDays * DAY)),
      state,
      now: assignedAt,
      assignedByUserId: staffId ?? null,
      ...(completed ? { completedAt: doneAt } : {}),
      ...(state === 'verificata' ? { verifiedAt: now, verifiedByUserId: staffId ?? null } : {}),
      ...extra,
    });
    if (id !== undefined) created += 1;
  };

  const demoPrincipal = await seedRepo.userIdByEmail(db, 'dirigente@demo.test');
  const ownInstitute =
    demoPrincipal === undefined ? undefined : await seedRepo.instituteOfPrincipal(db, demoPrincipal);
  // The demo principal: one overdue in progress (text), one to do (file), plessi in several states.
  await add(institute, 'istituto', ownInstitute, 'in_corso', -5);
  await add(filed, 'istituto', ownInstitute, 'da_fare', 25);
  const ownSites = ownInstitute === undefined ? [] : await seedRepo.sitesOfInstitute(db, ownInstitute, 3);
  const siteStates: [ActionState, number][] = [
    ['da_fare', -3],
    ['completata', 10],
    ['verificata', 5],
  ];
  for (const [i, siteId] of ownSites.entries())
    await add(site, 'plesso', siteId, siteStates[i]![0], siteStates[i]![1]);

  // Other demo institutes (the onboarding ones): every state, with evidence.
  const others = await seedRepo.demoInstitutes(db, ownInstitute, 8);
  const states: ActionState[] = ['da_fare', 'in_corso', 'completata', 'verificata'];
  for (const [i, id] of others.entries()) {
    const state = states[i % states.length]!;
    const completed = state === 'completata' || state === 'verificata';
    await add(
      institute,
      'istituto',
      id,
      state,
      i % 3 === 0 ? -7 : 12,
      completed
        ? {
            evidenceText: 'Nominata la prof.ssa referente con decreto del dirigente.',
            completedByUserId: null,
          }
        : {},
    );
    if (i < 4) {
      await add(
        filed,
        'istituto',
        id,
        state,
        i === 1 ? -2 : 30,
        completed
          ? {
              evidenceFileName: 'delibera-collegio.png',
              evidenceContentType: 'image/png',
              evidenceFile: PNG_EVIDENCE,
              evidenceSizeBytes: PNG_EVIDENCE.length,
            }
          : {},
      );
    }
  }

  // Teachers: the demo teacher has one to do; the demo teachers one in each state.
  await add(teacher, 'insegnante', await seedRepo.userIdByEmail(db, 'insegnante@demo.test'), 'da_fare', 10);
  const teachers = await seedRepo.demoTeachers(db, 4);
  for (const [i, id] of teachers.entries()) {
    const state = states[i % states.length]!;
    const completed = state === 'completata' || state === 'verificata';
    await add(
      teacher,
      'insegnante',
      id,
      state,
      i === 0 ? -4 : 8,
      completed
        ? {
            evidenceText: 'Seguito il modulo: ho capito come presentare il questionario alle classi.',
            completedByUserId: id,
          }
        : {},
    );
  }
  return { models: models.size, actions: created };
}
