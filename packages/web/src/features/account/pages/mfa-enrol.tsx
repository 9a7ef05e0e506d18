/**
 * `/account/mfa`: turn on two-factor authentication. Forced after sign-in when the organization requires
 * it (every other page leads here until done); also reachable from Account.
 */
import { useNavigate } from 'react-router';
import { useRefreshSession, useSession } from '../../../api/session.ts';
import { APP_PATHS } from '@netloom/protocol/http';
import { MfaSetup } from '../components/mfa-setup.tsx';
import { Notice, PageHeader } from '../../../components/ui.tsx';

export default function MfaEnrol() {
  const { data: session } = useSession();
  const refreshSession = useRefreshSession();
  const navigate = useNavigate();
  const forced = session?.mfaEnrolmentRequired;
  if (session?.user.mfaEnabled && !forced) {
    return (
      <div className="narrow">
        <PageHeader title="Two-factor authentication" />
        <Notice kind="success">Two-factor authentication is already on for {session.user.email}. Manage it under Account.</Notice>
      </div>
    );
  }
  return (
    <div className="narrow-wide">
      <PageHeader title="Set up two-factor authentication" subtitle={forced ? `${session?.organization?.name ?? 'Your organization'} requires two-factor authentication. Set it up to continue.` : 'Sign-ins will ask for a code from your authenticator app.'} />
      <div className="card">
        <MfaSetup
          onDone={async () => {
            await refreshSession();
            navigate(forced ? APP_PATHS.networks : APP_PATHS.account, { replace: true });
          }}
        />
      </div>
    </div>
  );
}
