import { Outlet } from 'react-router';
import { useCrossTabSignOut } from '../features/auth/hooks/use-cross-tab-sign-out';

/** Above every page, login pages included: listens for sign-outs from other tabs. */
export function RootLayout() {
  useCrossTabSignOut();
  return <Outlet />;
}
