import { describe, expect, it } from 'vitest';
import {
  groupsOf,
  LONG_TEXT_MAX,
  participantsOverlap,
  QUESTION_OPTIONS_MAX,
  questionsForGroup,
  SHORT_TEXT_MAX,
} from './survey.constants.ts';
import {
  answersNotForGroup,
  QuestionInputSchema,
  QuestionListInputSchema,
  ResponseInputSchema,
  SURVEY_MESSAGES,
  SurveyInputSchema,
  SurveyUpdateSchema,
  validateAnswers,
} from './surveys.schemas.ts';

const questions = [
  { id: 1, type: 'scelta_singola' as const, required: true, options: ['A', 'B', 'C'] },
  { id: 2, type: 'scelta_multipla' as const, required: false, options: ['X', 'Y', 'Z'] },
  { id: 3, type: 'scala' as const, required: true, options: [] },
  { id: 4, type: 'testo_breve' as const, required: false, options: [] },
  { id: 5, type: 'testo_lungo' as const, required: false, options: [] },
];

describe('validateAnswers', () => {
  it('accepts and normalises valid answers', () => {
    const r = validateAnswers(questions, {
      '1': 'B',
      '2': ['Z', 'X', 'X'],
      '3': '4',
      '4': '  ciao  ',
      '5': '',
    });
    expect(r.valid).toBe(true);
    expect(r.errors).toEqual({});
    expect(r.answers).toEqual({ '1': 'B', '2': ['X', 'Z'], '3': 4, '4': 'ciao' });
  });

  it('accepts a single string for a multiple choice', () => {
    expect(validateAnswers(questions, { '1': 'A', '2': 'Y', '3': 1 }).answers['2']).toEqual(['Y']);
  });

  it('reports required answers that are missing or blank', () => {
    const r = validateAnswers(questions, { '1': '  ', '2': [] });
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual({
      '1': [SURVEY_MESSAGES.answerRequired],
      '3': [SURVEY_MESSAGES.answerRequired],
    });
  });

  it('refuses options not in the list', () => {
    const r = validateAnswers(questions, { '1': 'D', '2': ['X', 'W'], '3': 3 });
    expect(r.errors).toEqual({ '1': [SURVEY_MESSAGES.answerChoice], '2': [SURVEY_MESSAGES.answerChoices] });
    expect(validateAnswers(questions, { '1': ['A'], '3': 3 }).errors['1']).toEqual([
      SURVEY_MESSAGES.answerChoice,
    ]);
  });

  it('refuses a scale that is not an integer from 1 to 5', () => {
    for (const v of [0, 6, 2.5, '2.5', 'tre', -1, true]) {
      expect(validateAnswers(questions, { '1': 'A', '3': v }).errors['3'], String(v)).toEqual([
        SURVEY_MESSAGES.answerScale,
      ]);
    }
  });

  it('refuses texts that are too long or not texts', () => {
    const r = validateAnswers(questions, {
      '1': 'A',
      '3': 2,
      '4': 'x'.repeat(SHORT_TEXT_MAX + 1),
      '5': 'y'.repeat(LONG_TEXT_MAX + 1),
    });
    expect(r.errors).toEqual({
      '4': [SURVEY_MESSAGES.answerTooLong(SHORT_TEXT_MAX)],
      '5': [SURVEY_MESSAGES.answerTooLong(LONG_TEXT_MAX)],
    });
    expect(validateAnswers(questions, { '1': 'A', '3': 2, '4': 5 }).errors['4']).toEqual([
      SURVEY_MESSAGES.answerText,
    ]);
    expect(validateAnswers(questions, { '1': 'A', '3': 2, '4': 'x'.repeat(SHORT_TEXT_MAX) }).valid).toBe(
      true,
    );
  });

  it('refuses unknown question ids', () => {
    expect(validateAnswers(questions, { '1': 'A', '3': 2, '99': 'x' }).errors).toEqual({
      '99': [SURVEY_MESSAGES.answerUnknown],
    });
  });
});

describe('question schema', () => {
  it('needs 2..max unique non-empty options for the choice types', () => {
    const base = { type: 'scelta_singola', label: 'Una domanda' };
    expect(QuestionInputSchema.safeParse({ ...base, options: ['Solo'] }).success).toBe(false);
    expect(QuestionInputSchema.safeParse({ ...base, options: ['A', ' '] }).success).toBe(false);
    expect(QuestionInputSchema.safeParse({ ...base, options: ['A', 'a'] }).success).toBe(false);
    expect(
      QuestionInputSchema.safeParse({
        ...base,
        options: Array.from({ length: QUESTION_OPTIONS_MAX + 1 }, (_, i) => `O${i}`),
      }).success,
    ).toBe(false);
    expect(QuestionInputSchema.parse({ ...base, options: [' A ', 'B'] })).toEqual({
      type: 'scelta_singola',
      label: 'Una domanda',
      help: '',
      required: false,
      options: ['A', 'B'],
      participants: 'entrambi',
    });
  });

  it('drops the options of the other types', () => {
    expect(QuestionInputSchema.parse({ type: 'scala', label: 'Quanto?', options: ['x'] }).options).toEqual(
      [],
    );
  });

  it('refuses an unknown type and a short label', () => {
    const r = QuestionListInputSchema.safeParse({ questions: [{ type: 'radio', label: 'ab' }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'questions.0.label',
      'questions.0.type',
    ]);
  });
});

describe('survey schema', () => {
  const survey = {
    title: 'Indagine',
    purpose: 'Uno scopo abbastanza lungo.',
    audience: 'Docenti',
    opensOn: '2026-03-01',
    closesOn: '2026-04-01',
  };
  it('accepts a survey and refuses closing before opening', () => {
    expect(SurveyInputSchema.safeParse(survey).success).toBe(true);
    const r = SurveyInputSchema.safeParse({ ...survey, closesOn: '2026-02-28' });
    expect(r.error?.issues[0]?.path).toEqual(['closesOn']);
    expect(r.error?.issues[0]?.message).toBe(SURVEY_MESSAGES.closesBeforeOpens);
  });
  it('refuses dates that do not exist', () => {
    expect(SurveyUpdateSchema.safeParse({ opensOn: '2026-02-30' }).success).toBe(false);
    expect(SurveyUpdateSchema.safeParse({ opensOn: '01/03/2026' }).success).toBe(false);
  });
  it('bounds the shape of the answers', () => {
    expect(ResponseInputSchema.safeParse({ answers: { '1': 'A', '2': ['x'], '3': 4 } }).success).toBe(true);
    expect(ResponseInputSchema.safeParse({ answers: { abc: 'A' } }).success).toBe(false);
    expect(ResponseInputSchema.safeParse({ answers: { '1': { x: 1 } } }).success).toBe(false);
  });
});

describe('participants (decision 046)', () => {
  const qs = [
    { id: 1, participants: 'entrambi' as const },
    { id: 2, participants: 'insegnanti' as const },
    { id: 3, participants: 'codici' as const },
  ];
  it('a group sees the questions for it or for everyone, and none of a survey not for it', () => {
    expect(questionsForGroup('entrambi', qs, 'insegnanti').map((q) => q.id)).toEqual([1, 2]);
    expect(questionsForGroup('entrambi', qs, 'codici').map((q) => q.id)).toEqual([1, 3]);
    expect(questionsForGroup('insegnanti', qs, 'insegnanti').map((q) => q.id)).toEqual([1, 2]);
    expect(questionsForGroup('insegnanti', qs, 'codici')).toEqual([]);
  });
  it('two surveys overlap when they share a group', () => {
    expect(participantsOverlap('insegnanti', 'codici')).toBe(false);
    expect(participantsOverlap('entrambi', 'codici')).toBe(true);
    expect(participantsOverlap('insegnanti', 'insegnanti')).toBe(true);
    expect(groupsOf('entrambi')).toEqual(['insegnanti', 'codici']);
  });
  it('names the answers to questions of the survey that are not for the group', () => {
    const mine = questionsForGroup('entrambi', qs, 'codici');
    expect(answersNotForGroup(qs, mine, { '1': 'a', '2': 'b', '3': 'c', '99': 'x' })).toEqual(['2']);
  });
});
