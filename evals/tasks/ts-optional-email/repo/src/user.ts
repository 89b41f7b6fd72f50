export interface User {
  name: string;
  /** Optional since accounts can be created from a name alone. */
  email?: string;
}
