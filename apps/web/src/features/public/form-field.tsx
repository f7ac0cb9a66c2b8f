/** id, aria-invalid and aria-describedby of a form field, from its name and the current errors. */
export function fieldProps(name: string, errors: Record<string, string[]>) {
  const invalid = Boolean(errors[name]?.length);
  return {
    id: `contatto-${name}`,
    name,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? `contatto-${name}-error` : undefined,
  };
}

export function FieldError({ name, errors }: { name: string; errors: Record<string, string[]> }) {
  const messages = errors[name];
  if (!messages?.length) return null;
  return (
    <div id={`contatto-${name}-error`} className="invalid-feedback d-block" data-testid={`error-${name}`}>
      {messages.join(' ')}
    </div>
  );
}
