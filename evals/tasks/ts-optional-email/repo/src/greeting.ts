import type { User } from './user';

/** "Hello, Ann <ann@example.org>". */
export function greeting(user: User): string {
  return `Hello, ${user.name} <${user.email.toLowerCase()}>`;
}
