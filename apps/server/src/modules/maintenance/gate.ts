/**
 * Which agents may not claim, held in memory on every instance so the claim path pays one
 * lookup, not a query: the whole cluster, or agents on the listed VMs. The maintenance service
 * refreshes it from the database at start, on every NOTIFY of a start or end, and after a gap.
 */
export class MaintenanceGate {
  private cluster = false;
  private vms: ReadonlySet<number> = new Set();
  private readonly ended = new Set<() => void>();

  /** Whether agents on `vmId` are held back from new runs. */
  blocks(vmId: number): boolean {
    return this.cluster || this.vms.has(vmId);
  }

  get clusterActive(): boolean {
    return this.cluster;
  }

  /** Replaces the state; when a window ended, `onEnded` hooks run (agents waiting re-claim). */
  set(rows: readonly { scope: string; rota_vms_id: number | null }[]): void {
    const cluster = rows.some((r) => r.scope === 'cluster');
    const vms = new Set(
      rows.flatMap((r) => (r.scope === 'vm' && r.rota_vms_id ? [r.rota_vms_id] : [])),
    );
    const lifted = (this.cluster && !cluster) || [...this.vms].some((vm) => !vms.has(vm));
    this.cluster = cluster;
    this.vms = vms;
    if (lifted) for (const hook of this.ended) hook();
  }

  onEnded(hook: () => void): () => void {
    this.ended.add(hook);
    return () => this.ended.delete(hook);
  }
}
