/**
 * macOS: the checked spec as a Seatbelt profile (seatbeltProfile.ts), run by `sandbox-exec`. Seatbelt allows
 * or denies paths and binds nothing: the command's HOME and temp folder are the private ones where they
 * are, build outputs stay read-only, and nothing is staged.
 */
import { ok } from '../../core/contracts/result';
import type { PlatformLauncher } from './platformLauncher';
import { seatbeltArgs, seatbeltProfile } from './seatbeltProfile';

export const seatbeltLauncher: PlatformLauncher = {
  binds: false,
  stages: false,
  launch(spec) {
    const profile = seatbeltProfile({
      root: spec.root,
      writable: spec.writable,
      readOnly: spec.readOnly,
      hidden: spec.hidden.map((h) => h.path),
      hiddenOutside: spec.hiddenOutside.map((h) => h.path),
      visibleOutside: spec.visibleOutside,
      writableOutside: spec.writableOutside,
      readOnlyOutside: spec.readOnlyOutside,
      network: spec.network,
      privateHome: spec.own.home,
      privateTmp: spec.own.tmp,
    });
    return ok(seatbeltArgs(profile, spec.argv));
  },
};
