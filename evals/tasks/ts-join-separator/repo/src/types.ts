/** How joinPath joins. */
export interface JoinOptions {
  /** Add one separator after the last part. */
  trailing?: boolean;
}
