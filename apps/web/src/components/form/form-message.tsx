import { Alert } from 'design-react-kit';

/** A form-level message: errors are announced (role="alert"), successes politely (role="status"). */
export function FormMessage({
  message,
  tone = 'danger',
}: {
  message?: string | undefined;
  tone?: 'danger' | 'success' | 'info';
}) {
  if (!message) return null;
  if (tone === 'danger') {
    return (
      <Alert color="danger" role="alert">
        {message}
      </Alert>
    );
  }
  // design-react-kit's Alert always says role="alert": a success is only a polite status.
  return (
    <div className={`alert alert-${tone}`} role="status">
      {message}
    </div>
  );
}
