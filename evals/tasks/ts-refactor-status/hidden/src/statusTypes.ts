import type { OrderStatus } from '../status';
import { advance, countByStatus, isOpen, nextStatus, type Order } from '../order';

// Each line below compiles only while statuses are typed as OrderStatus.
// @ts-expect-error "shiped" is not a status
export const typo: OrderStatus = 'shiped';
// @ts-expect-error an order's status is an OrderStatus
export const badOrder: Order = { id: 'x', status: 'lost', items: 1 };
// @ts-expect-error nextStatus takes an OrderStatus
nextStatus('unknown');
// @ts-expect-error isOpen takes an OrderStatus
isOpen('gone');
export const next: OrderStatus | undefined = nextStatus('new');
export const moved: OrderStatus = advance({ id: 'y', status: 'paid', items: 1 }).status;
export const counts: number = countByStatus([]).shipped;
