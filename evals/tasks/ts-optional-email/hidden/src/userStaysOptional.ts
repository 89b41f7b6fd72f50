import type { User } from '../user';

// Compiles only while email stays optional.
export const nameOnly: User = { name: 'Ann' };
