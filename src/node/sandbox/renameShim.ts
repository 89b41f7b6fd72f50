/**
 * The rename helper of a staged command (Linux): a small shared library preloaded into every process the
 * command starts, so that ordinary folder renames work over the staging layer as they do outside.
 *
 * Why: overlayfs renames a folder that came from its lower layer (the workspace) only with `redirect_dir`,
 * which needs trusted extended attributes — an unprivileged mount has only `userxattr`, and the kernel
 * refuses the two together (measured on Linux 6.18: "conflicting options: userxattr,redirect_dir=on";
 * without `userxattr`: "redirect_dir requires permission to access trusted xattrs"; `metacopy` likewise, and
 * `index` falls back to off). So the kernel answers EXDEV and leaves it to userspace: coreutils `mv` then
 * copies, but `git mv src/utils src/helpers`, Node's `fs.renameSync` and Python's `os.rename` fail. The
 * helper does for every program what `mv` does: on EXDEV for a folder within one mount, copy the tree
 * beside the target, rename the copy into place (a new folder is the layer's own, so that rename works),
 * remove the source. The layer then holds what a copy-and-remove leaves — a whiteout or an opaque folder at
 * the old name, new entries at the new one — which the listing (stagedChanges.ts) and the judge already
 * rule on: removals and additions, each within the edit globs or not.
 *
 * It also makes local clones work: a hard link to a workspace file copies the file up first, and the new
 * name then shows another inode than the source had before the link (git's local clone dies: "hardlink
 * different from source"). Such a link is taken back and EXDEV returned, which git, pnpm and cargo take as
 * "copy instead".
 *
 * The library is built once per machine with the system's C compiler (by absolute path), kept beside the
 * layers under a name that hashes its source, and bound read-only into the sandbox at PRELOAD_AT. Programs
 * that do not load it (static binaries, a machine without a compiler) keep the kernel's EXDEV.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { err, ok, type Result } from '../../core/contracts/result';
import { sha256Hex } from '../../core/primitives/hash';
import { HOST_PATH, hostTool } from './hostTools';

/** Where the helper is bound inside the sandbox (bubblewrap's own /dev: nothing a command lists or keeps). */
export const PRELOAD_AT = '/dev/plan-execute/rename.so';

/** The helper's file name prefix in the layers' base (the stale sweep leaves these). */
export const SHIM_PREFIX = 'shim-';

const SOURCE = String.raw`#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

typedef int (*renameat2_fn)(int, const char *, int, const char *, unsigned int);
typedef int (*renameat_fn)(int, const char *, int, const char *);
typedef int (*rename_fn)(const char *, const char *);
typedef int (*linkat_fn)(int, const char *, int, const char *, int);
typedef int (*link_fn)(const char *, const char *);

static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }

/* Removes what 'name' in 'dirfd' holds, depth first; never follows a link. */
static int remove_tree(int at, const char *name) {
  struct stat st;
  if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return errno == ENOENT ? 0 : -1;
  if (!S_ISDIR(st.st_mode)) return unlinkat(at, name, 0);
  int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  DIR *d = fdopendir(fd);
  if (!d) { close(fd); return -1; }
  struct dirent *e;
  int failed = 0;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (remove_tree(dirfd(d), e->d_name) != 0) failed = 1;
  }
  closedir(d);
  if (failed) return -1;
  return unlinkat(at, name, AT_REMOVEDIR);
}

static int copy_file(int from, int to) {
  char buf[1 << 16];
  for (;;) {
    ssize_t n = read(from, buf, sizeof buf);
    if (n == 0) return 0;
    if (n < 0) { if (errno == EINTR) continue; return -1; }
    for (ssize_t off = 0; off < n;) {
      ssize_t w = write(to, buf + off, (size_t)(n - off));
      if (w < 0) { if (errno == EINTR) continue; return -1; }
      off += w;
    }
  }
}

/* Copies 'name' in 'sfd' to 'name2' in 'dfd' (a folder's whole tree): contents, links, modes, times. */
static int copy_tree(int sfd, const char *name, int dfd, const char *name2) {
  struct stat st;
  if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return -1;
  struct timespec times[2] = {st.st_atim, st.st_mtim};
  if (S_ISLNK(st.st_mode)) {
    char target[PATH_MAX + 1];
    ssize_t n = readlinkat(sfd, name, target, PATH_MAX);
    if (n < 0) return -1;
    target[n] = '\0';
    if (symlinkat(target, dfd, name2) != 0) return -1;
    utimensat(dfd, name2, times, AT_SYMLINK_NOFOLLOW);
    return 0;
  }
  if (S_ISREG(st.st_mode)) {
    int in = openat(sfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0) return -1;
    int out = openat(dfd, name2, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st.st_mode & 07777);
    if (out < 0) { close(in); return -1; }
    int r = copy_file(in, out);
    if (r == 0) r = fchmod(out, st.st_mode & 07777);
    if (r == 0) futimens(out, times);
    close(in);
    if (close(out) != 0) r = -1;
    return r;
  }
  if (S_ISFIFO(st.st_mode)) {
    if (mkfifoat(dfd, name2, st.st_mode & 07777) != 0) return -1;
    return 0;
  }
  if (!S_ISDIR(st.st_mode)) { errno = EXDEV; return -1; } /* sockets, devices: not ours to copy */
  /* A folder that cannot be written could not have its entries removed after the copy. */
  if (faccessat(sfd, name, W_OK | X_OK, AT_EACCESS) != 0) return -1;
  if (mkdirat(dfd, name2, 0700) != 0) return -1;
  int in = openat(sfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  int out = openat(dfd, name2, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (in < 0 || out < 0) { if (in >= 0) close(in); if (out >= 0) close(out); return -1; }
  DIR *d = fdopendir(in);
  if (!d) { close(in); close(out); return -1; }
  struct dirent *e;
  int r = 0;
  while (r == 0 && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    r = copy_tree(dirfd(d), e->d_name, out, e->d_name);
  }
  closedir(d);
  if (r == 0) r = fchmod(out, st.st_mode & 07777);
  if (r == 0) futimens(out, times);
  close(out);
  return r;
}

/* The folder holding 'path' (relative to 'dirfd'), opened: its device tells whether two paths share a mount. */
static int parent_of(int dirfd, const char *path, char *base, size_t size) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    snprintf(base, size, "%s", path);
    return dirfd == AT_FDCWD ? open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : dup(dirfd);
  }
  char dir[PATH_MAX];
  size_t len = (size_t)(slash - path);
  if (len >= sizeof dir) { errno = ENAMETOOLONG; return -1; }
  memcpy(dir, path, len);
  dir[len] = '\0';
  snprintf(base, size, "%s", slash + 1);
  return openat(dirfd, len == 0 ? "/" : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/*
 * overlayfs cannot rename a folder that came from its lower layer without 'redirect_dir', which an
 * unprivileged mount cannot have: the kernel says EXDEV and leaves it to userspace. What 'mv' does then,
 * done here for every program (git mv, Node's fs.renameSync, Python's os.rename): copy the tree beside the
 * target, rename the copy into place, remove the source. Only a folder, only within one mount, only plain
 * renames; anything else keeps the kernel's EXDEV.
 */
static int emulate(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
  int saved = errno;
  struct stat src, dst;
  if (flags & ~RENAME_NOREPLACE) goto keep;
  if (fstatat(olddirfd, oldpath, &src, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(src.st_mode)) goto keep;
  char oldbase[NAME_MAX + 1], newbase[NAME_MAX + 1];
  int op = parent_of(olddirfd, oldpath, oldbase, sizeof oldbase);
  int np = parent_of(newdirfd, newpath, newbase, sizeof newbase);
  struct stat ops, nps;
  if (op < 0 || np < 0 || fstat(op, &ops) != 0 || fstat(np, &nps) != 0 || ops.st_dev != nps.st_dev || ops.st_dev != src.st_dev) {
    if (op >= 0) close(op);
    if (np >= 0) close(np);
    goto keep;
  }
  int exists = fstatat(np, newbase, &dst, AT_SYMLINK_NOFOLLOW) == 0;
  if (exists && (flags & RENAME_NOREPLACE)) { close(op); close(np); errno = EEXIST; return -1; }
  if (exists && !S_ISDIR(dst.st_mode)) { close(op); close(np); errno = ENOTDIR; return -1; }
  if (exists && dst.st_ino == src.st_ino) { close(op); close(np); return 0; }
  char temp[NAME_MAX + 1];
  snprintf(temp, sizeof temp, ".%.200s.pe-rename-%ld", newbase, (long)getpid());
  if (copy_tree(op, oldbase, np, temp) != 0) {
    remove_tree(np, temp);
    close(op); close(np);
    goto keep;
  }
  renameat_fn real = (renameat_fn)next("renameat");
  if (real(np, temp, np, newbase) != 0) { /* a non-empty folder there: ENOTEMPTY, as rename says */
    int e = errno;
    remove_tree(np, temp);
    close(op); close(np);
    errno = e;
    return -1;
  }
  int r = remove_tree(op, oldbase);
  close(op); close(np);
  return r;
keep:
  errno = saved;
  return -1;
}

int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
  renameat2_fn real = (renameat2_fn)next("renameat2");
  int r = real ? real(olddirfd, oldpath, newdirfd, newpath, flags) : (errno = ENOSYS, -1);
  if (r != 0 && errno == EXDEV) return emulate(olddirfd, oldpath, newdirfd, newpath, flags);
  return r;
}

int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
  int r = ((renameat_fn)next("renameat"))(olddirfd, oldpath, newdirfd, newpath);
  if (r != 0 && errno == EXDEV) return emulate(olddirfd, oldpath, newdirfd, newpath, 0);
  return r;
}

int rename(const char *oldpath, const char *newpath) {
  int r = ((rename_fn)next("rename"))(oldpath, newpath);
  if (r != 0 && errno == EXDEV) return emulate(AT_FDCWD, oldpath, AT_FDCWD, newpath, 0);
  return r;
}

/*
 * A hard link to a file of the lower layer copies it up first, and the new name then shows the upper
 * file's inode — and so, after the copy-up, may the old name — while the source had the lower's inode when
 * the program looked at it: a program that checks its link against what it saw before (git's local clone:
 * "hardlink different from source") fails. So the source is looked at before the link, as such a program
 * does, and a link whose new name shows another inode is taken back and EXDEV returned — the answer
 * programs that link or copy (git, pnpm, cargo) take as "copy instead".
 */
static int checked(const struct stat *before, int newdirfd, const char *newpath) {
  struct stat b;
  if (fstatat(newdirfd, newpath, &b, AT_SYMLINK_NOFOLLOW) != 0) return 0;
  if (before->st_ino == b.st_ino && before->st_dev == b.st_dev) return 0;
  unlinkat(newdirfd, newpath, 0);
  errno = EXDEV;
  return -1;
}

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags) {
  struct stat before;
  int seen = fstatat(olddirfd, oldpath, &before, (flags & AT_SYMLINK_FOLLOW) ? 0 : AT_SYMLINK_NOFOLLOW) == 0;
  int r = ((linkat_fn)next("linkat"))(olddirfd, oldpath, newdirfd, newpath, flags);
  return r == 0 && seen ? checked(&before, newdirfd, newpath) : r;
}

int link(const char *oldpath, const char *newpath) {
  struct stat before;
  int seen = lstat(oldpath, &before) == 0;
  int r = ((link_fn)next("link"))(oldpath, newpath);
  return r == 0 && seen ? checked(&before, AT_FDCWD, newpath) : r;
}
`;

/** Why there is no rename helper (programs then meet the kernel's EXDEV). */
interface ShimUnavailable {
  reason: string;
}

/** The helper's path, or why there is none. */
type Built = Result<string, ShimUnavailable>;
const built = new Map<string, Built>();

/** The helper for layers under `base`: built on first use (about a tenth of a second), then reused. */
export function renameShim(base: string): Built {
  const known = built.get(base);
  if (known) return known;
  const result = build(base);
  built.set(base, result);
  return result;
}

function build(base: string): Built {
  const path = nodePath.join(base, `${SHIM_PREFIX}${sha256Hex(SOURCE).slice(0, 16)}.so`);
  if (fs.existsSync(path)) return ok(path);
  const cc = hostTool('cc') ?? hostTool('gcc') ?? hostTool('clang');
  if (!cc) return err({ reason: 'no C compiler (cc) to build the rename helper' });
  // Built under a name of its own, then renamed into place: two processes building at once both succeed.
  const temp = `${path}.${process.pid}.tmp`;
  const r = spawnSync(cc, ['-shared', '-fPIC', '-O2', '-o', temp, '-x', 'c', '-', '-ldl'], {
    input: SOURCE,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: HOST_PATH },
  });
  if (r.status !== 0) {
    fs.rmSync(temp, { force: true });
    const said = (r.stderr || r.error?.message || '').trim().split('\n').slice(-1)[0] ?? '';
    return err({ reason: `the rename helper could not be built (${cc} exit ${r.status ?? r.signal}${said ? `: ${said}` : ''})` });
  }
  fs.chmodSync(temp, 0o644);
  fs.renameSync(temp, path);
  return ok(path);
}
