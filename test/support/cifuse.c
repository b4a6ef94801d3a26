// A case-insensitive, case-preserving passthrough FUSE file system (what macOS gives mysqld): mysqld keeps
// lower_case_table_names=2 only on a data directory where a name and its upper case are one file, and Linux has no
// such file system without CONFIG_UNICODE (ext4 casefold, tmpfs casefold). Used by hand to measure the applier
// road's schemaMap on lctn 2 (lib/binlog/replay-channel.js serverWork); not part of npm test: mysqld's --initialize
// on it failed in 5 of 6 runs started from node (InnoDB found an undo truncation log and would not start, or
// --initialize failed), in none of 5 started from bash.
//   cc -O2 -o cifuse test/support/cifuse.c $(pkg-config --cflags --libs fuse3)   # apt-get install libfuse3-dev
//   ./cifuse BACKING_DIR MOUNTPOINT; mysqld --initialize-insecure --lower-case-table-names=2 --datadir=MOUNTPOINT/data
//   (then start mysqld with --lower-case-table-names=2; fusermount3 -u MOUNTPOINT after it stopped)
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <fuse.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <unistd.h>

static char root[PATH_MAX];

// path ("/A/b") -> backing path with each existing component spelled as it is stored (matched regardless of case);
// components that do not exist keep the case given.
static int resolve(const char *path, char *out) {
  size_t n = snprintf(out, PATH_MAX, "%s", root);
  const char *p = path;
  while (*p) {
    while (*p == '/') p++;
    if (!*p) break;
    const char *e = strchr(p, '/');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char comp[NAME_MAX + 1];
    if (len > NAME_MAX) return -ENAMETOOLONG;
    memcpy(comp, p, len);
    comp[len] = 0;
    char try[PATH_MAX];
    struct stat st;
    snprintf(try, sizeof try, "%s/%s", out, comp);
    if (lstat(try, &st) != 0) {
      DIR *d = opendir(out);
      if (d) {
        struct dirent *de;
        while ((de = readdir(d))) {
          if (strcasecmp(de->d_name, comp) == 0) { snprintf(comp, sizeof comp, "%s", de->d_name); break; }
        }
        closedir(d);
      }
    }
    if (n + 1 + strlen(comp) >= PATH_MAX) return -ENAMETOOLONG;
    n += snprintf(out + n, PATH_MAX - n, "/%s", comp);
    p += len;
  }
  return 0;
}

#define R(path, var) char var[PATH_MAX]; { int r_ = resolve(path, var); if (r_) return r_; }
#define E(x) ((x) == -1 ? -errno : 0)

static void *ci_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
  (void)conn;
  cfg->use_ino = 1;
  cfg->hard_remove = 1;
  cfg->entry_timeout = 0;
  cfg->attr_timeout = 0;
  cfg->negative_timeout = 0;
  cfg->direct_io = 1; // two spellings are two kernel inodes: no page cache, so neither sees stale data
  return NULL;
}
static int ci_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
  if (fi) return E(fstat(fi->fh, st));
  R(path, b);
  return E(lstat(b, st));
}
static int ci_access(const char *path, int mask) { R(path, b); return E(access(b, mask)); }
static int ci_readlink(const char *path, char *buf, size_t size) {
  R(path, b);
  ssize_t r = readlink(b, buf, size - 1);
  if (r == -1) return -errno;
  buf[r] = 0;
  return 0;
}
static int ci_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t off, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
  (void)off; (void)fi; (void)flags;
  R(path, b);
  DIR *d = opendir(b);
  if (!d) return -errno;
  struct dirent *de;
  while ((de = readdir(d))) {
    struct stat st;
    memset(&st, 0, sizeof st);
    st.st_ino = de->d_ino;
    st.st_mode = de->d_type << 12;
    if (filler(buf, de->d_name, &st, 0, 0)) break;
  }
  closedir(d);
  return 0;
}
static int ci_mknod(const char *path, mode_t mode, dev_t rdev) { R(path, b); return E(mknod(b, mode, rdev)); }
static int ci_mkdir(const char *path, mode_t mode) { R(path, b); return E(mkdir(b, mode)); }
static int ci_unlink(const char *path) { R(path, b); return E(unlink(b)); }
static int ci_rmdir(const char *path) { R(path, b); return E(rmdir(b)); }
static int ci_symlink(const char *from, const char *to) { R(to, b); return E(symlink(from, b)); }
static int ci_rename(const char *from, const char *to, unsigned int flags) {
  R(from, a);
  R(to, b);
  if (strcasecmp(a, b) == 0) { // a change of case only: store the new spelling
    char *slash = strrchr(b, '/');
    const char *given = strrchr(to, '/');
    if (slash && given) strcpy(slash + 1, given + 1);
  }
  return E(renameat2(AT_FDCWD, a, AT_FDCWD, b, flags));
}
static int ci_link(const char *from, const char *to) { R(from, a); R(to, b); return E(link(a, b)); }
static int ci_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
  if (fi) return E(fchmod(fi->fh, mode));
  R(path, b);
  return E(chmod(b, mode));
}
static int ci_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
  if (fi) return E(fchown(fi->fh, uid, gid));
  R(path, b);
  return E(lchown(b, uid, gid));
}
static int ci_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
  if (fi) return E(ftruncate(fi->fh, size));
  R(path, b);
  return E(truncate(b, size));
}
static int ci_utimens(const char *path, const struct timespec ts[2], struct fuse_file_info *fi) {
  if (fi) return E(futimens(fi->fh, ts));
  R(path, b);
  return E(utimensat(AT_FDCWD, b, ts, AT_SYMLINK_NOFOLLOW));
}
static int ci_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
  R(path, b);
  int fd = open(b, fi->flags, mode);
  if (fd == -1) return -errno;
  fi->fh = fd;
  return 0;
}
static int ci_open(const char *path, struct fuse_file_info *fi) {
  R(path, b);
  int fd = open(b, fi->flags);
  if (fd == -1) return -errno;
  fi->fh = fd;
  return 0;
}
static int ci_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
  (void)path;
  ssize_t r = pread(fi->fh, buf, size, off);
  return r == -1 ? -errno : (int)r;
}
static int ci_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
  (void)path;
  ssize_t r = pwrite(fi->fh, buf, size, off);
  return r == -1 ? -errno : (int)r;
}
static int ci_statfs(const char *path, struct statvfs *st) { R(path, b); return E(statvfs(b, st)); }
static int ci_flush(const char *path, struct fuse_file_info *fi) { (void)path; return E(close(dup(fi->fh))); }
static int ci_release(const char *path, struct fuse_file_info *fi) { (void)path; close(fi->fh); return 0; }
static int ci_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
  (void)path;
  return E(datasync ? fdatasync(fi->fh) : fsync(fi->fh));
}
static int ci_fallocate(const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi) {
  (void)path;
  return E(fallocate(fi->fh, mode, off, len));
}
static off_t ci_lseek(const char *path, off_t off, int whence, struct fuse_file_info *fi) {
  (void)path;
  off_t r = lseek(fi->fh, off, whence);
  return r == -1 ? -errno : r;
}

static const struct fuse_operations ops = {
  .init = ci_init, .getattr = ci_getattr, .access = ci_access, .readlink = ci_readlink, .readdir = ci_readdir,
  .mknod = ci_mknod, .mkdir = ci_mkdir, .symlink = ci_symlink, .unlink = ci_unlink, .rmdir = ci_rmdir,
  .rename = ci_rename, .link = ci_link, .chmod = ci_chmod, .chown = ci_chown, .truncate = ci_truncate,
  .utimens = ci_utimens, .open = ci_open, .create = ci_create, .read = ci_read, .write = ci_write,
  .statfs = ci_statfs, .flush = ci_flush, .release = ci_release, .fsync = ci_fsync, .fallocate = ci_fallocate,
  .lseek = ci_lseek,
};

int main(int argc, char *argv[]) {
  if (argc < 3) { fprintf(stderr, "usage: %s BACKING_DIR MOUNTPOINT [fuse options]\n", argv[0]); return 2; }
  if (!realpath(argv[1], root)) { perror(argv[1]); return 2; }
  argv[1] = argv[0];
  umask(0);
  return fuse_main(argc - 1, argv + 1, &ops, NULL);
}
