import { describe, expect, it } from 'vitest';
import { PersonNameSchema } from '../accounts/registration.schemas.ts';
import { BookingInputSchema } from '../bookings/bookings.schemas.ts';
import { ContactMessageInputSchema } from '../public/contact.schemas.ts';
import { SubstitutionCreateSchema } from '../substitutions/substitutions.schemas.ts';
import { UserCreateSchema, UserUpdateSchema } from '../users/users.schemas.ts';
import { isPlainName, PERSON_NAME_CONTROL_MESSAGE } from './index.ts';

const BAD = [
  'Mario\r\nBcc: x@esempio.it',
  'Mario\nRossi',
  'Mario\tRossi',
  'Ma\u0000rio',
  'Mario\u0007',
  'Ma\u007frio',
  'Ma\u0085rio',
  'Mario\u2028Rossi',
  'Mario\u202eissoR',
];
const GOOD = ['Mario', "D'Amico", 'Anna Maria', 'José Pérez-Núñez', 'Zoë Ødegaard', '  Luca  '];

/** The messages of the issues a schema found. */
function messages(
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error!.issues.map((i) => i.message);
}

describe('person names (issue 32)', () => {
  it('isPlainName refuses control characters, line separators and bidi controls; accepts real names', () => {
    for (const name of BAD) expect(isPlainName(name), JSON.stringify(name)).toBe(false);
    for (const name of GOOD) expect(isPlainName(name), name).toBe(true);
  });

  it('every schema that takes a person name refuses them with the Italian message', () => {
    for (const bad of BAD) {
      expect(messages(PersonNameSchema, bad), JSON.stringify(bad)).toContain(PERSON_NAME_CONTROL_MESSAGE);
      expect(
        messages(UserCreateSchema, { firstName: bad, lastName: 'Rossi', email: 'a@esempio.it', roles: [] }),
      ).toContain(PERSON_NAME_CONTROL_MESSAGE);
      expect(messages(UserUpdateSchema, { lastName: bad })).toContain(PERSON_NAME_CONTROL_MESSAGE);
      expect(messages(ContactMessageInputSchema.shape.name, bad)).toContain(PERSON_NAME_CONTROL_MESSAGE);
      expect(messages(BookingInputSchema.shape.name, bad)).toContain(PERSON_NAME_CONTROL_MESSAGE);
    }
    const substitution = SubstitutionCreateSchema.safeParse({
      incomingFirstName: 'Mario\nX',
      incomingLastName: 'Rossi',
    });
    expect(substitution.success).toBe(false);
    expect(substitution.error!.issues.find((i) => i.path[0] === 'incomingFirstName')?.message).toBe(
      PERSON_NAME_CONTROL_MESSAGE,
    );
  });

  it('real names still pass, trimmed', () => {
    for (const good of GOOD) {
      expect(PersonNameSchema.parse(good)).toBe(good.trim());
      expect(UserUpdateSchema.parse({ firstName: good }).firstName).toBe(good.trim());
      expect(messages(ContactMessageInputSchema.shape.name, good)).toEqual([]);
      expect(messages(BookingInputSchema.shape.name, good)).toEqual([]);
    }
  });
});
