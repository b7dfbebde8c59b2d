import StatusItemsPage from '../../status-items/routes/status-items-page';

/** `/configuration` is another name of `/connector` (SPEC §2): the configuration items. */
export default function ConfigurationPage() {
  return <StatusItemsPage />;
}
