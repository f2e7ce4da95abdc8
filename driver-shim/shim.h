/* SPDX-License-Identifier: MIT */
/*
 * driver-shim: the "kernel driver" half of vgpu. It owns the kbase and
 * panfrost semantics (contexts, memory, job queues, events, syncobjs) and
 * is transport-neutral: the FUSE server (fuse-dev/), an in-process DBT
 * front end or a fuzzer supply a struct shim_host and call the entry
 * points below, the way the VFS calls a driver's file_operations.
 *
 * Memory hand-over: every client context has one backing object (a memfd
 * in user space) that the transport creates on request and maps into this
 * process as one window. The shim carves allocations out of that window,
 * points the GPU's page tables at it through the bus, and answers mmap
 * questions with "offset X of backing object N"; the client (or the DBT on
 * its behalf) maps that object itself, so CPU and GPU see the same pages
 * with no copy, and no context can name another context's pages.
 */
#ifndef VGPU_SHIM_H
#define VGPU_SHIM_H

#include "os/os.h"

struct shim_dev;
struct shim_file;
struct shim_fobj;

/* The caller of one file operation, as a kernel driver sees "current". */
struct shim_caller {
	int pid;
	void *priv; /* the transport's */
	/* 0, or -SHIM_EFAULT when the range is not mapped in the caller. */
	int (*copy_from_user)(struct shim_caller *c, void *dst, uint64_t uaddr,
			      size_t len);
	int (*copy_to_user)(struct shim_caller *c, uint64_t uaddr,
			    const void *src, size_t len);
	/* True once the caller has gone or its syscall was interrupted. */
	bool (*interrupted)(struct shim_caller *c);
	/* Bytes moved through the two copy functions (statistics). */
	uint64_t copied_in, copied_out;
	/*
	 * The caller's descriptor table, for ioctls that hand out or take
	 * file descriptors (see "File objects" below). fd_install gives the
	 * caller a new descriptor for @o (the transport takes its own
	 * reference) and returns its number or -errno; fd_get finds the
	 * object behind the caller's descriptor @fd and returns it with a
	 * reference: -SHIM_EBADF when @fd is not open, -SHIM_EINVAL when it
	 * is not one of this device's objects. NULL when the transport
	 * cannot (FUSE): those ioctls then fail with EOPNOTSUPP.
	 */
	int (*fd_install)(struct shim_caller *c, struct shim_fobj *o, bool cloexec);
	int (*fd_get)(struct shim_caller *c, int fd, struct shim_fobj **out);
};

/* One context's backing store, made by the transport. */
struct shim_backing {
	uint8_t *host;  /* mapped read/write in this process */
	uint64_t size;  /* bytes; sparse: pages cost nothing until touched */
	int handle;     /* what the transport calls it (e.g. memfd number) */
	void *priv;
};

struct shim_host {
	void *priv;
	int (*backing_create)(void *priv, uint64_t size, struct shim_backing *b);
	void (*backing_destroy)(void *priv, struct shim_backing *b);
	/* Gives pages back to the host (they read as zero afterwards). */
	void (*backing_discard)(void *priv, struct shim_backing *b,
				uint64_t off, uint64_t len);
	/* Client user addresses are addresses of this very process (the
	 * in-process mode): user buffers can then be imported in place. */
	bool local_user_memory;
	/* A file became readable/pollable: wake poll() waiters. */
	void (*file_notify)(void *priv, struct shim_file *f);
	/* The same for a file object: its poll mask is now @mask. Called
	 * with the driver's lock held: it must not call back into the shim. */
	void (*fobj_notify)(void *priv, struct shim_fobj *o, unsigned mask);
};

enum shim_gpu_model {
	SHIM_GPU_G71,
	SHIM_GPU_G52,
};

/*
 * What a front end asks for. The first four fields describe the machine,
 * which the board (board/) builds from them; the driver ignores them and
 * learns its GPU from the registers, as a real one does. The rest are
 * the driver's own parameters.
 */
struct shim_config {
	enum shim_gpu_model gpu;
	unsigned cores;          /* modelled cores (SHADER_PRESENT); 0: the GPU's */
	unsigned workers;        /* host threads running shader work; 0 = 1 */
	bool no_shader_stats;    /* per-instruction statistics off (on by default) */
	bool unstable_ioctls;    /* panfrost's module parameter of that name */
	uint64_t backing_size;   /* per-context window; 0 = default */
	/* The watchdog soft-stops a job after either: */
	uint32_t job_timeout_ms; /* host time; 0 = default (10 min) */
	uint32_t job_gpu_timeout_ms; /* GPU time (its clock); 0 = the Linux
				      * driver's: panfrost 500 ms, kbase 5 s */
};

enum shim_node {
	SHIM_NODE_KBASE,    /* /dev/mali0 */
	SHIM_NODE_PANFROST, /* /dev/dri/renderD128 */
};

/* Probes the GPU behind @port (driver-shim/port.h), which the board made
 * and keeps valid until shim_dev_destroy(). */
struct shim_port;
struct shim_dev *shim_dev_create(const struct shim_config *cfg,
				 const struct shim_host *host,
				 const struct shim_port *port);
void shim_dev_destroy(struct shim_dev *dev);
const char *shim_dev_gpu_name(struct shim_dev *dev);

/* The transport's own pointer for an open file (e.g. for poll wake-ups). */
void shim_file_set_host_data(struct shim_file *f, void *data);
void *shim_file_host_data(struct shim_file *f);

/* open()/release(): release runs when the last reference goes away. */
int shim_open(struct shim_dev *dev, enum shim_node node,
	      struct shim_caller *c, struct shim_file **out);
void shim_release(struct shim_file *f);

/*
 * ioctl(): @arg holds the argument bytes (SHIM_IOC_SIZE(cmd) of them)
 * copied in by the transport when the command has the WRITE direction, and
 * is copied back when it has READ. Returns >= 0 or -errno.
 */
long shim_ioctl(struct shim_file *f, struct shim_caller *c, unsigned cmd,
		void *arg);

/* read(): kbase event records. Returns bytes or -errno. */
long shim_read(struct shim_file *f, struct shim_caller *c, void *buf,
	       size_t len, bool nonblock);

#define SHIM_POLLIN 0x001u
#define SHIM_POLLRDNORM 0x040u
unsigned shim_poll(struct shim_file *f);

/*
 * mmap() in two steps, because the transport, not the shim, creates the
 * client's mapping: shim_mmap_prepare() resolves what the driver's mmap
 * handler would map at page offset @pgoff (a kbase cookie, the tracking
 * page, a GPU VA, a panfrost fake offset) to a range of the file's backing
 * object; after the client mapped it at @cpu_va, shim_mmap_commit() tells
 * the driver (kbase SAME_VA: the CPU VA becomes the GPU VA).
 * shim_munmap() is the vm_close of that mapping.
 */
struct shim_mmap_info {
	int backing;       /* struct shim_backing.handle */
	uint64_t offset;   /* byte offset into the backing object */
	uint64_t length;
	uint32_t flags;    /* SHIM_MMAP_* */
};
#define SHIM_MMAP_NEEDS_COMMIT 1u /* the CPU VA matters to the driver */
#define SHIM_MMAP_READONLY 2u
/* No backing to map (an alias of scattered pages): reserve the address
 * range only; the GPU alone sees its contents. */
#define SHIM_MMAP_RESERVE_ONLY 4u
/* The range must not cross a 4 GiB boundary (kbase GPU_VA_SAME_4GB_PAGE):
 * the client picks such an address; the commit refuses others. */
#define SHIM_MMAP_SAME_4GB 8u

int shim_mmap_prepare(struct shim_file *f, uint64_t pgoff, uint64_t length,
		      uint32_t prot, struct shim_mmap_info *out);
int shim_mmap_commit(struct shim_file *f, uint64_t pgoff, uint64_t length,
		     uint64_t cpu_va);
int shim_munmap(struct shim_file *f, uint64_t cpu_va, uint64_t length);
/* Reads the file's GPU memory at GPU address @va as the GPU would (a
 * capture's or debugger's view): 0, or -SHIM_EFAULT where a page is not
 * mapped, -SHIM_EINVAL without a context yet. */
int shim_gpu_read(struct shim_file *f, uint64_t va, void *buf, size_t len);

/*
 * File objects: the files a driver creates besides its device nodes, which
 * a kernel hands to user space as new descriptors (anon_inode_getfd,
 * dma_buf_fd, sync_file_create): a PRIME dma-buf of a BO, a sync_file
 * (one fence), a syncobj file, a kbase counter reader. The shim knows no
 * host descriptor: it makes an object, and the transport materialises it
 * through the caller's fd_install (a real descriptor of the caller whose
 * ioctl/read/mmap/poll/close come back to the calls below), and turns a
 * descriptor back into its object with fd_get. An object lives while the
 * transport holds a reference (its descriptors, mappings and calls).
 */
enum shim_fobj_kind {
	SHIM_FOBJ_DMABUF = 1,   /* PRIME export of a GEM object */
	SHIM_FOBJ_SYNC_FILE,    /* one fence (EXPORT_SYNC_FILE) */
	SHIM_FOBJ_SYNCOBJ,      /* a DRM syncobj as a file */
	SHIM_FOBJ_PRFCNT,       /* a kbase kinstr_prfcnt reader */
	SHIM_FOBJ_FENCE_STREAM, /* kbase STREAM_CREATE (no operations) */
	SHIM_FOBJ_KINSTR_JM,    /* a kbase kinstr_jm atom-state reader */
};
enum shim_fobj_kind shim_fobj_kind(struct shim_fobj *o);
/* Its readiness keeps changing (a reader): a level-triggered poll source;
 * else poll readiness, once there, stays (a signalled fence). */
bool shim_fobj_level(struct shim_fobj *o);
struct shim_fobj *shim_fobj_get(struct shim_fobj *o);
void shim_fobj_put(struct shim_fobj *o); /* the last one releases it */
/* Gives back a reference fd_install took, on its failure path (the
 * driver holds its own then; no lock is taken). */
void shim_fobj_unget(struct shim_fobj *o);
void shim_fobj_set_host_data(struct shim_fobj *o, void *data);
void *shim_fobj_host_data(struct shim_fobj *o);
long shim_fobj_ioctl(struct shim_fobj *o, struct shim_caller *c, unsigned cmd,
		     void *arg);
long shim_fobj_read(struct shim_fobj *o, struct shim_caller *c, void *buf,
		    size_t len, bool nonblock);
unsigned shim_fobj_poll(struct shim_fobj *o);
/* As shim_mmap_prepare (a dma-buf maps its BO's pages, offset 0 first). */
int shim_fobj_mmap_prepare(struct shim_fobj *o, uint64_t pgoff, uint64_t length,
			   uint32_t prot, struct shim_mmap_info *out);
/* lseek(): the new offset, or -errno (ESPIPE where the kind has none). A
 * dma-buf tells its size this way (SEEK_END), which importers rely on. */
#define SHIM_SEEK_SET 0 /* lseek's whence, as the UAPI numbers them */
#define SHIM_SEEK_END 2
int64_t shim_fobj_llseek(struct shim_fobj *o, int64_t off, int whence);

/* A Chrome/Perfetto trace of ioctls and jobs: start recording, then hand
 * the JSON to @emit piece by piece (which also stops recording). */
int shim_trace_start(struct shim_dev *dev);
/* A graphics job's figures (the board's, from the shader back end) on the
 * GPU's "draws" track, or with @frame its "frames" track: a span from
 * @t0_ns to @t1_ns (os_time_ns) whose arguments are @c's counts. Nothing
 * when not recording. Names are strings that outlive the trace. */
#define SHIM_TRACE_ARGS 10
struct shim_trace_counts {
	unsigned n;                /* at most SHIM_TRACE_ARGS */
	const char *const *keys;   /* @n names */
	const uint64_t *vals;      /* @n counts */
	/* and an argument @list_name (when @nlist): an array of @nlist
	 * objects, each of two counts named by @list_keys, from @list's
	 * pairs of values */
	const char *list_name;
	const char *const *list_keys;
	const uint64_t *list;
	unsigned nlist;
};
void shim_trace_gfx(struct shim_dev *dev, bool frame, uint64_t t0_ns, uint64_t t1_ns,
		    const struct shim_trace_counts *c);
void shim_trace_write(struct shim_dev *dev,
		      void (*emit)(void *priv, const char *s, size_t n), void *priv);

/*
 * The driver's sections of the statistics document, which the board
 * assembles (board_stats_json): handed to @emit piece by piece, as JSON
 * text that fits where the board puts it.
 */
enum shim_stats_part {
	SHIM_STATS_SYSTEM,   /* the driver's members of "system", comma-separated */
	SHIM_STATS_CONTEXTS, /* the elements of "contexts" (per context) */
	SHIM_STATS_IOCTLS,   /* the elements of "ioctls" (per request kind) */
	SHIM_STATS_FAULTS,   /* the elements of "faults" (the fault log) */
};
void shim_stats_write(struct shim_dev *dev, enum shim_stats_part part,
		      void (*emit)(void *priv, const char *s, size_t n),
		      void *priv);

#endif
