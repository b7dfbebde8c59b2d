export { DataTable } from './data-table';
export { ListFooter, useLastPageWhenPastTheEnd } from './list-footer';
export { LoadingRows } from './loading-rows';
export type {
  DataTableColumn,
  DataTableProps,
  DataTableQuery,
  DataTableSelection,
  RowAction,
} from './data-table';
export { useRowSelection } from './use-row-selection';
export { CreateButton, useStandardRowActions } from './standard-actions';
