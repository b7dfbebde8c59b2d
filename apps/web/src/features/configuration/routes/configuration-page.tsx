import { StatusItemsPage } from '../../status-items';

/** `/configuration` is another name of `/connector` (SPEC §2): the configuration items. */
export default function ConfigurationPage() {
  return <StatusItemsPage />;
}
