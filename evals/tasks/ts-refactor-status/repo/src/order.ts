export interface Order {
  id: string;
  status: string;
  items: number;
}

const NEXT: Record<string, string> = { new: 'paid', paid: 'shipped' };

/** The status after `status`, or undefined at the end of the line. */
export function nextStatus(status: string): string | undefined {
  return NEXT[status];
}

/** The order moved one status on; an order already shipped is returned as it is. */
export function advance(order: Order): Order {
  const next = nextStatus(order.status);
  return next === undefined ? order : { ...order, status: next };
}

/** How many orders are in each status. */
export function countByStatus(orders: readonly Order[]): Record<string, number> {
  const counts: Record<string, number> = { new: 0, paid: 0, shipped: 0 };
  for (const o of orders) counts[o.status] = (counts[o.status] ?? 0) + 1;
  return counts;
}

export function isOpen(status: string): boolean {
  return status !== 'shipped';
}
