// The questions as the editor holds them, and their conversion to and from the survey's questions (pure).
import {
  CHOICE_QUESTION_TYPES,
  type QuestionType,
  type SurveyParticipants,
  type SurveyQuestion,
} from '@portale/shared/surveys';

export interface EditorQuestion {
  key: string;
  type: QuestionType;
  label: string;
  help: string;
  required: boolean;
  options: string[];
  /** Who sees it (decision 046). */
  participants: SurveyParticipants;
}

let nextKey = 0;
export const newKey = () => `nuova-${++nextKey}`;
export const isChoice = (type: QuestionType) => (CHOICE_QUESTION_TYPES as readonly string[]).includes(type);

export function toEditorQuestions(questions: readonly SurveyQuestion[]): EditorQuestion[] {
  return questions.map((q) => ({
    key: `d-${q.id}`,
    type: q.type,
    label: q.label,
    help: q.help,
    required: q.required,
    options: [...q.options],
    participants: q.participants,
  }));
}

/** The body of `PUT /api/surveys/:id/questions` for the editor's list. */
export function editorToInput(items: readonly EditorQuestion[]) {
  return items.map((q) => ({
    type: q.type,
    label: q.label,
    help: q.help,
    required: q.required,
    options: isChoice(q.type) ? q.options : [],
    participants: q.participants,
  }));
}

export const shortLabel = (q: EditorQuestion, index: number) =>
  `domanda ${index + 1}${q.label.trim() ? ` «${q.label.trim()}»` : ''}`;
