/** `/`: signed in → your networks; signed out → sign in (which links to Discover and the docs). */
import { Navigate } from 'react-router';
import { useSession } from '../../../api/session.ts';
import { APP_PATHS } from '@netloom/protocol/http';

export default function Home() {
  const { data: session } = useSession();
  return <Navigate to={session ? APP_PATHS.networks : APP_PATHS.signIn} replace />;
}
