import { Button } from 'design-react-kit';
import { useNavigation } from 'react-router';

/** The submit button of a route form, disabled while the action runs. */
export function SubmitButton({
  idle,
  busy,
  className = 'mt-2',
}: {
  idle: string;
  busy: string;
  className?: string;
}) {
  const submitting = useNavigation().state === 'submitting';
  return (
    <Button color="primary" type="submit" disabled={submitting} className={className}>
      {submitting ? busy : idle}
    </Button>
  );
}
