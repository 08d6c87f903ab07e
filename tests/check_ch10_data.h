/* check_ch10_data.h: the digits file, its split, batches, and
   DistributedSampler (helper data).

   The sampler's index lists are torch 1.13's: every row of
   sampler_cases was printed by this script on this machine's torch 1.13,

       from torch.utils.data import DistributedSampler
       for L in (0, 1, 2, 5, 7, 10, 16):
         for N in (1, 2, 3, 4, 7):
           for shuffle in (False, True):
             for drop in (False, True):
               for seed, epoch in ((0, 0), (0, 1), (42, 3)) if shuffle else ((0, 0),):
                 lists = []
                 for r in range(N):
                   s = DistributedSampler(range(L), num_replicas=N, rank=r,
                                          shuffle=shuffle, seed=seed, drop_last=drop)
                   s.set_epoch(epoch)
                   lists.append(" ".join(map(str, list(s))))
                 print(L, N, shuffle, drop, seed, epoch, " | ".join(lists))

   The digits file's per-class counts and the split's indices were counted
   by Python's csv module and torch.randperm from the file itself; bad
   files are written by the tests into a scratch directory. */
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ the sampler */

typedef struct {
    int64_t len, replicas;
    bool shuffle, drop_last;
    uint64_t seed;
    int64_t epoch;
    const char *want;           /* rank 0's indices | rank 1's | ... */
} sampler_case;

static const sampler_case sampler_cases[] = {
    { 0, 1, 0, 0, 0, 0, "" },
    { 0, 1, 0, 1, 0, 0, "" },
    { 0, 1, 1, 0, 0, 0, "" },
    { 0, 1, 1, 0, 0, 1, "" },
    { 0, 1, 1, 0, 42, 3, "" },
    { 0, 1, 1, 1, 0, 0, "" },
    { 0, 1, 1, 1, 0, 1, "" },
    { 0, 1, 1, 1, 42, 3, "" },
    { 0, 2, 0, 0, 0, 0, " | " },
    { 0, 2, 0, 1, 0, 0, " | " },
    { 0, 2, 1, 0, 0, 0, " | " },
    { 0, 2, 1, 0, 0, 1, " | " },
    { 0, 2, 1, 0, 42, 3, " | " },
    { 0, 2, 1, 1, 0, 0, " | " },
    { 0, 2, 1, 1, 0, 1, " | " },
    { 0, 2, 1, 1, 42, 3, " | " },
    { 0, 3, 0, 0, 0, 0, " |  | " },
    { 0, 3, 0, 1, 0, 0, " |  | " },
    { 0, 3, 1, 0, 0, 0, " |  | " },
    { 0, 3, 1, 0, 0, 1, " |  | " },
    { 0, 3, 1, 0, 42, 3, " |  | " },
    { 0, 3, 1, 1, 0, 0, " |  | " },
    { 0, 3, 1, 1, 0, 1, " |  | " },
    { 0, 3, 1, 1, 42, 3, " |  | " },
    { 0, 4, 0, 0, 0, 0, " |  |  | " },
    { 0, 4, 0, 1, 0, 0, " |  |  | " },
    { 0, 4, 1, 0, 0, 0, " |  |  | " },
    { 0, 4, 1, 0, 0, 1, " |  |  | " },
    { 0, 4, 1, 0, 42, 3, " |  |  | " },
    { 0, 4, 1, 1, 0, 0, " |  |  | " },
    { 0, 4, 1, 1, 0, 1, " |  |  | " },
    { 0, 4, 1, 1, 42, 3, " |  |  | " },
    { 0, 7, 0, 0, 0, 0, " |  |  |  |  |  | " },
    { 0, 7, 0, 1, 0, 0, " |  |  |  |  |  | " },
    { 0, 7, 1, 0, 0, 0, " |  |  |  |  |  | " },
    { 0, 7, 1, 0, 0, 1, " |  |  |  |  |  | " },
    { 0, 7, 1, 0, 42, 3, " |  |  |  |  |  | " },
    { 0, 7, 1, 1, 0, 0, " |  |  |  |  |  | " },
    { 0, 7, 1, 1, 0, 1, " |  |  |  |  |  | " },
    { 0, 7, 1, 1, 42, 3, " |  |  |  |  |  | " },
    { 1, 1, 0, 0, 0, 0, "0" },
    { 1, 1, 0, 1, 0, 0, "0" },
    { 1, 1, 1, 0, 0, 0, "0" },
    { 1, 1, 1, 0, 0, 1, "0" },
    { 1, 1, 1, 0, 42, 3, "0" },
    { 1, 1, 1, 1, 0, 0, "0" },
    { 1, 1, 1, 1, 0, 1, "0" },
    { 1, 1, 1, 1, 42, 3, "0" },
    { 1, 2, 0, 0, 0, 0, "0 | 0" },
    { 1, 2, 0, 1, 0, 0, " | " },
    { 1, 2, 1, 0, 0, 0, "0 | 0" },
    { 1, 2, 1, 0, 0, 1, "0 | 0" },
    { 1, 2, 1, 0, 42, 3, "0 | 0" },
    { 1, 2, 1, 1, 0, 0, " | " },
    { 1, 2, 1, 1, 0, 1, " | " },
    { 1, 2, 1, 1, 42, 3, " | " },
    { 1, 3, 0, 0, 0, 0, "0 | 0 | 0" },
    { 1, 3, 0, 1, 0, 0, " |  | " },
    { 1, 3, 1, 0, 0, 0, "0 | 0 | 0" },
    { 1, 3, 1, 0, 0, 1, "0 | 0 | 0" },
    { 1, 3, 1, 0, 42, 3, "0 | 0 | 0" },
    { 1, 3, 1, 1, 0, 0, " |  | " },
    { 1, 3, 1, 1, 0, 1, " |  | " },
    { 1, 3, 1, 1, 42, 3, " |  | " },
    { 1, 4, 0, 0, 0, 0, "0 | 0 | 0 | 0" },
    { 1, 4, 0, 1, 0, 0, " |  |  | " },
    { 1, 4, 1, 0, 0, 0, "0 | 0 | 0 | 0" },
    { 1, 4, 1, 0, 0, 1, "0 | 0 | 0 | 0" },
    { 1, 4, 1, 0, 42, 3, "0 | 0 | 0 | 0" },
    { 1, 4, 1, 1, 0, 0, " |  |  | " },
    { 1, 4, 1, 1, 0, 1, " |  |  | " },
    { 1, 4, 1, 1, 42, 3, " |  |  | " },
    { 1, 7, 0, 0, 0, 0, "0 | 0 | 0 | 0 | 0 | 0 | 0" },
    { 1, 7, 0, 1, 0, 0, " |  |  |  |  |  | " },
    { 1, 7, 1, 0, 0, 0, "0 | 0 | 0 | 0 | 0 | 0 | 0" },
    { 1, 7, 1, 0, 0, 1, "0 | 0 | 0 | 0 | 0 | 0 | 0" },
    { 1, 7, 1, 0, 42, 3, "0 | 0 | 0 | 0 | 0 | 0 | 0" },
    { 1, 7, 1, 1, 0, 0, " |  |  |  |  |  | " },
    { 1, 7, 1, 1, 0, 1, " |  |  |  |  |  | " },
    { 1, 7, 1, 1, 42, 3, " |  |  |  |  |  | " },
    { 2, 1, 0, 0, 0, 0, "0 1" },
    { 2, 1, 0, 1, 0, 0, "0 1" },
    { 2, 1, 1, 0, 0, 0, "0 1" },
    { 2, 1, 1, 0, 0, 1, "1 0" },
    { 2, 1, 1, 0, 42, 3, "1 0" },
    { 2, 1, 1, 1, 0, 0, "0 1" },
    { 2, 1, 1, 1, 0, 1, "1 0" },
    { 2, 1, 1, 1, 42, 3, "1 0" },
    { 2, 2, 0, 0, 0, 0, "0 | 1" },
    { 2, 2, 0, 1, 0, 0, "0 | 1" },
    { 2, 2, 1, 0, 0, 0, "0 | 1" },
    { 2, 2, 1, 0, 0, 1, "1 | 0" },
    { 2, 2, 1, 0, 42, 3, "1 | 0" },
    { 2, 2, 1, 1, 0, 0, "0 | 1" },
    { 2, 2, 1, 1, 0, 1, "1 | 0" },
    { 2, 2, 1, 1, 42, 3, "1 | 0" },
    { 2, 3, 0, 0, 0, 0, "0 | 1 | 0" },
    { 2, 3, 0, 1, 0, 0, " |  | " },
    { 2, 3, 1, 0, 0, 0, "0 | 1 | 0" },
    { 2, 3, 1, 0, 0, 1, "1 | 0 | 1" },
    { 2, 3, 1, 0, 42, 3, "1 | 0 | 1" },
    { 2, 3, 1, 1, 0, 0, " |  | " },
    { 2, 3, 1, 1, 0, 1, " |  | " },
    { 2, 3, 1, 1, 42, 3, " |  | " },
    { 2, 4, 0, 0, 0, 0, "0 | 1 | 0 | 1" },
    { 2, 4, 0, 1, 0, 0, " |  |  | " },
    { 2, 4, 1, 0, 0, 0, "0 | 1 | 0 | 1" },
    { 2, 4, 1, 0, 0, 1, "1 | 0 | 1 | 0" },
    { 2, 4, 1, 0, 42, 3, "1 | 0 | 1 | 0" },
    { 2, 4, 1, 1, 0, 0, " |  |  | " },
    { 2, 4, 1, 1, 0, 1, " |  |  | " },
    { 2, 4, 1, 1, 42, 3, " |  |  | " },
    { 2, 7, 0, 0, 0, 0, "0 | 1 | 0 | 1 | 0 | 1 | 0" },
    { 2, 7, 0, 1, 0, 0, " |  |  |  |  |  | " },
    { 2, 7, 1, 0, 0, 0, "0 | 1 | 0 | 1 | 0 | 1 | 0" },
    { 2, 7, 1, 0, 0, 1, "1 | 0 | 1 | 0 | 1 | 0 | 1" },
    { 2, 7, 1, 0, 42, 3, "1 | 0 | 1 | 0 | 1 | 0 | 1" },
    { 2, 7, 1, 1, 0, 0, " |  |  |  |  |  | " },
    { 2, 7, 1, 1, 0, 1, " |  |  |  |  |  | " },
    { 2, 7, 1, 1, 42, 3, " |  |  |  |  |  | " },
    { 5, 1, 0, 0, 0, 0, "0 1 2 3 4" },
    { 5, 1, 0, 1, 0, 0, "0 1 2 3 4" },
    { 5, 1, 1, 0, 0, 0, "4 0 1 3 2" },
    { 5, 1, 1, 0, 0, 1, "0 4 2 3 1" },
    { 5, 1, 1, 0, 42, 3, "2 3 1 0 4" },
    { 5, 1, 1, 1, 0, 0, "4 0 1 3 2" },
    { 5, 1, 1, 1, 0, 1, "0 4 2 3 1" },
    { 5, 1, 1, 1, 42, 3, "2 3 1 0 4" },
    { 5, 2, 0, 0, 0, 0, "0 2 4 | 1 3 0" },
    { 5, 2, 0, 1, 0, 0, "0 2 | 1 3" },
    { 5, 2, 1, 0, 0, 0, "4 1 2 | 0 3 4" },
    { 5, 2, 1, 0, 0, 1, "0 2 1 | 4 3 0" },
    { 5, 2, 1, 0, 42, 3, "2 1 4 | 3 0 2" },
    { 5, 2, 1, 1, 0, 0, "4 1 | 0 3" },
    { 5, 2, 1, 1, 0, 1, "0 2 | 4 3" },
    { 5, 2, 1, 1, 42, 3, "2 1 | 3 0" },
    { 5, 3, 0, 0, 0, 0, "0 3 | 1 4 | 2 0" },
    { 5, 3, 0, 1, 0, 0, "0 | 1 | 2" },
    { 5, 3, 1, 0, 0, 0, "4 3 | 0 2 | 1 4" },
    { 5, 3, 1, 0, 0, 1, "0 3 | 4 1 | 2 0" },
    { 5, 3, 1, 0, 42, 3, "2 0 | 3 4 | 1 2" },
    { 5, 3, 1, 1, 0, 0, "4 | 0 | 1" },
    { 5, 3, 1, 1, 0, 1, "0 | 4 | 2" },
    { 5, 3, 1, 1, 42, 3, "2 | 3 | 1" },
    { 5, 4, 0, 0, 0, 0, "0 4 | 1 0 | 2 1 | 3 2" },
    { 5, 4, 0, 1, 0, 0, "0 | 1 | 2 | 3" },
    { 5, 4, 1, 0, 0, 0, "4 2 | 0 4 | 1 0 | 3 1" },
    { 5, 4, 1, 0, 0, 1, "0 1 | 4 0 | 2 4 | 3 2" },
    { 5, 4, 1, 0, 42, 3, "2 4 | 3 2 | 1 3 | 0 1" },
    { 5, 4, 1, 1, 0, 0, "4 | 0 | 1 | 3" },
    { 5, 4, 1, 1, 0, 1, "0 | 4 | 2 | 3" },
    { 5, 4, 1, 1, 42, 3, "2 | 3 | 1 | 0" },
    { 5, 7, 0, 0, 0, 0, "0 | 1 | 2 | 3 | 4 | 0 | 1" },
    { 5, 7, 0, 1, 0, 0, " |  |  |  |  |  | " },
    { 5, 7, 1, 0, 0, 0, "4 | 0 | 1 | 3 | 2 | 4 | 0" },
    { 5, 7, 1, 0, 0, 1, "0 | 4 | 2 | 3 | 1 | 0 | 4" },
    { 5, 7, 1, 0, 42, 3, "2 | 3 | 1 | 0 | 4 | 2 | 3" },
    { 5, 7, 1, 1, 0, 0, " |  |  |  |  |  | " },
    { 5, 7, 1, 1, 0, 1, " |  |  |  |  |  | " },
    { 5, 7, 1, 1, 42, 3, " |  |  |  |  |  | " },
    { 7, 1, 0, 0, 0, 0, "0 1 2 3 4 5 6" },
    { 7, 1, 0, 1, 0, 0, "0 1 2 3 4 5 6" },
    { 7, 1, 1, 0, 0, 0, "4 0 5 3 2 6 1" },
    { 7, 1, 1, 0, 0, 1, "0 6 1 3 5 2 4" },
    { 7, 1, 1, 0, 42, 3, "5 3 1 2 4 6 0" },
    { 7, 1, 1, 1, 0, 0, "4 0 5 3 2 6 1" },
    { 7, 1, 1, 1, 0, 1, "0 6 1 3 5 2 4" },
    { 7, 1, 1, 1, 42, 3, "5 3 1 2 4 6 0" },
    { 7, 2, 0, 0, 0, 0, "0 2 4 6 | 1 3 5 0" },
    { 7, 2, 0, 1, 0, 0, "0 2 4 | 1 3 5" },
    { 7, 2, 1, 0, 0, 0, "4 5 2 1 | 0 3 6 4" },
    { 7, 2, 1, 0, 0, 1, "0 1 5 4 | 6 3 2 0" },
    { 7, 2, 1, 0, 42, 3, "5 1 4 0 | 3 2 6 5" },
    { 7, 2, 1, 1, 0, 0, "4 5 2 | 0 3 6" },
    { 7, 2, 1, 1, 0, 1, "0 1 5 | 6 3 2" },
    { 7, 2, 1, 1, 42, 3, "5 1 4 | 3 2 6" },
    { 7, 3, 0, 0, 0, 0, "0 3 6 | 1 4 0 | 2 5 1" },
    { 7, 3, 0, 1, 0, 0, "0 3 | 1 4 | 2 5" },
    { 7, 3, 1, 0, 0, 0, "4 3 1 | 0 2 4 | 5 6 0" },
    { 7, 3, 1, 0, 0, 1, "0 3 4 | 6 5 0 | 1 2 6" },
    { 7, 3, 1, 0, 42, 3, "5 2 0 | 3 4 5 | 1 6 3" },
    { 7, 3, 1, 1, 0, 0, "4 3 | 0 2 | 5 6" },
    { 7, 3, 1, 1, 0, 1, "0 3 | 6 5 | 1 2" },
    { 7, 3, 1, 1, 42, 3, "5 2 | 3 4 | 1 6" },
    { 7, 4, 0, 0, 0, 0, "0 4 | 1 5 | 2 6 | 3 0" },
    { 7, 4, 0, 1, 0, 0, "0 | 1 | 2 | 3" },
    { 7, 4, 1, 0, 0, 0, "4 2 | 0 6 | 5 1 | 3 4" },
    { 7, 4, 1, 0, 0, 1, "0 5 | 6 2 | 1 4 | 3 0" },
    { 7, 4, 1, 0, 42, 3, "5 4 | 3 6 | 1 0 | 2 5" },
    { 7, 4, 1, 1, 0, 0, "4 | 0 | 5 | 3" },
    { 7, 4, 1, 1, 0, 1, "0 | 6 | 1 | 3" },
    { 7, 4, 1, 1, 42, 3, "5 | 3 | 1 | 2" },
    { 7, 7, 0, 0, 0, 0, "0 | 1 | 2 | 3 | 4 | 5 | 6" },
    { 7, 7, 0, 1, 0, 0, "0 | 1 | 2 | 3 | 4 | 5 | 6" },
    { 7, 7, 1, 0, 0, 0, "4 | 0 | 5 | 3 | 2 | 6 | 1" },
    { 7, 7, 1, 0, 0, 1, "0 | 6 | 1 | 3 | 5 | 2 | 4" },
    { 7, 7, 1, 0, 42, 3, "5 | 3 | 1 | 2 | 4 | 6 | 0" },
    { 7, 7, 1, 1, 0, 0, "4 | 0 | 5 | 3 | 2 | 6 | 1" },
    { 7, 7, 1, 1, 0, 1, "0 | 6 | 1 | 3 | 5 | 2 | 4" },
    { 7, 7, 1, 1, 42, 3, "5 | 3 | 1 | 2 | 4 | 6 | 0" },
    { 10, 1, 0, 0, 0, 0, "0 1 2 3 4 5 6 7 8 9" },
    { 10, 1, 0, 1, 0, 0, "0 1 2 3 4 5 6 7 8 9" },
    { 10, 1, 1, 0, 0, 0, "4 1 7 5 3 9 0 8 6 2" },
    { 10, 1, 1, 0, 0, 1, "5 6 1 2 0 8 9 3 7 4" },
    { 10, 1, 1, 0, 42, 3, "7 6 5 3 4 9 0 8 2 1" },
    { 10, 1, 1, 1, 0, 0, "4 1 7 5 3 9 0 8 6 2" },
    { 10, 1, 1, 1, 0, 1, "5 6 1 2 0 8 9 3 7 4" },
    { 10, 1, 1, 1, 42, 3, "7 6 5 3 4 9 0 8 2 1" },
    { 10, 2, 0, 0, 0, 0, "0 2 4 6 8 | 1 3 5 7 9" },
    { 10, 2, 0, 1, 0, 0, "0 2 4 6 8 | 1 3 5 7 9" },
    { 10, 2, 1, 0, 0, 0, "4 7 3 0 6 | 1 5 9 8 2" },
    { 10, 2, 1, 0, 0, 1, "5 1 0 9 7 | 6 2 8 3 4" },
    { 10, 2, 1, 0, 42, 3, "7 5 4 0 2 | 6 3 9 8 1" },
    { 10, 2, 1, 1, 0, 0, "4 7 3 0 6 | 1 5 9 8 2" },
    { 10, 2, 1, 1, 0, 1, "5 1 0 9 7 | 6 2 8 3 4" },
    { 10, 2, 1, 1, 42, 3, "7 5 4 0 2 | 6 3 9 8 1" },
    { 10, 3, 0, 0, 0, 0, "0 3 6 9 | 1 4 7 0 | 2 5 8 1" },
    { 10, 3, 0, 1, 0, 0, "0 3 6 | 1 4 7 | 2 5 8" },
    { 10, 3, 1, 0, 0, 0, "4 5 0 2 | 1 3 8 4 | 7 9 6 1" },
    { 10, 3, 1, 0, 0, 1, "5 2 9 4 | 6 0 3 5 | 1 8 7 6" },
    { 10, 3, 1, 0, 42, 3, "7 3 0 1 | 6 4 8 7 | 5 9 2 6" },
    { 10, 3, 1, 1, 0, 0, "4 5 0 | 1 3 8 | 7 9 6" },
    { 10, 3, 1, 1, 0, 1, "5 2 9 | 6 0 3 | 1 8 7" },
    { 10, 3, 1, 1, 42, 3, "7 3 0 | 6 4 8 | 5 9 2" },
    { 10, 4, 0, 0, 0, 0, "0 4 8 | 1 5 9 | 2 6 0 | 3 7 1" },
    { 10, 4, 0, 1, 0, 0, "0 4 | 1 5 | 2 6 | 3 7" },
    { 10, 4, 1, 0, 0, 0, "4 3 6 | 1 9 2 | 7 0 4 | 5 8 1" },
    { 10, 4, 1, 0, 0, 1, "5 0 7 | 6 8 4 | 1 9 5 | 2 3 6" },
    { 10, 4, 1, 0, 42, 3, "7 4 2 | 6 9 1 | 5 0 7 | 3 8 6" },
    { 10, 4, 1, 1, 0, 0, "4 3 | 1 9 | 7 0 | 5 8" },
    { 10, 4, 1, 1, 0, 1, "5 0 | 6 8 | 1 9 | 2 3" },
    { 10, 4, 1, 1, 42, 3, "7 4 | 6 9 | 5 0 | 3 8" },
    { 10, 7, 0, 0, 0, 0, "0 7 | 1 8 | 2 9 | 3 0 | 4 1 | 5 2 | 6 3" },
    { 10, 7, 0, 1, 0, 0, "0 | 1 | 2 | 3 | 4 | 5 | 6" },
    { 10, 7, 1, 0, 0, 0, "4 8 | 1 6 | 7 2 | 5 4 | 3 1 | 9 7 | 0 5" },
    { 10, 7, 1, 0, 0, 1, "5 3 | 6 7 | 1 4 | 2 5 | 0 6 | 8 1 | 9 2" },
    { 10, 7, 1, 0, 42, 3, "7 8 | 6 2 | 5 1 | 3 7 | 4 6 | 9 5 | 0 3" },
    { 10, 7, 1, 1, 0, 0, "4 | 1 | 7 | 5 | 3 | 9 | 0" },
    { 10, 7, 1, 1, 0, 1, "5 | 6 | 1 | 2 | 0 | 8 | 9" },
    { 10, 7, 1, 1, 42, 3, "7 | 6 | 5 | 3 | 4 | 9 | 0" },
    { 16, 1, 0, 0, 0, 0, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" },
    { 16, 1, 0, 1, 0, 0, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" },
    { 16, 1, 1, 0, 0, 0, "12 10 9 6 11 8 13 5 2 14 15 0 4 3 7 1" },
    { 16, 1, 1, 0, 0, 1, "5 15 6 4 11 2 7 12 1 0 9 8 10 3 13 14" },
    { 16, 1, 1, 0, 42, 3, "11 12 9 1 4 6 13 14 0 15 5 3 2 8 7 10" },
    { 16, 1, 1, 1, 0, 0, "12 10 9 6 11 8 13 5 2 14 15 0 4 3 7 1" },
    { 16, 1, 1, 1, 0, 1, "5 15 6 4 11 2 7 12 1 0 9 8 10 3 13 14" },
    { 16, 1, 1, 1, 42, 3, "11 12 9 1 4 6 13 14 0 15 5 3 2 8 7 10" },
    { 16, 2, 0, 0, 0, 0, "0 2 4 6 8 10 12 14 | 1 3 5 7 9 11 13 15" },
    { 16, 2, 0, 1, 0, 0, "0 2 4 6 8 10 12 14 | 1 3 5 7 9 11 13 15" },
    { 16, 2, 1, 0, 0, 0, "12 9 11 13 2 15 4 7 | 10 6 8 5 14 0 3 1" },
    { 16, 2, 1, 0, 0, 1, "5 6 11 7 1 9 10 13 | 15 4 2 12 0 8 3 14" },
    { 16, 2, 1, 0, 42, 3, "11 9 4 13 0 5 2 7 | 12 1 6 14 15 3 8 10" },
    { 16, 2, 1, 1, 0, 0, "12 9 11 13 2 15 4 7 | 10 6 8 5 14 0 3 1" },
    { 16, 2, 1, 1, 0, 1, "5 6 11 7 1 9 10 13 | 15 4 2 12 0 8 3 14" },
    { 16, 2, 1, 1, 42, 3, "11 9 4 13 0 5 2 7 | 12 1 6 14 15 3 8 10" },
    { 16, 3, 0, 0, 0, 0, "0 3 6 9 12 15 | 1 4 7 10 13 0 | 2 5 8 11 14 1" },
    { 16, 3, 0, 1, 0, 0, "0 3 6 9 12 | 1 4 7 10 13 | 2 5 8 11 14" },
    { 16, 3, 1, 0, 0, 0, "12 6 13 14 4 1 | 10 11 5 15 3 12 | 9 8 2 0 7 10" },
    { 16, 3, 1, 0, 0, 1, "5 4 7 0 10 14 | 15 11 12 9 3 5 | 6 2 1 8 13 15" },
    { 16, 3, 1, 0, 42, 3, "11 1 13 15 2 10 | 12 4 14 5 8 11 | 9 6 0 3 7 12" },
    { 16, 3, 1, 1, 0, 0, "12 6 13 14 4 | 10 11 5 15 3 | 9 8 2 0 7" },
    { 16, 3, 1, 1, 0, 1, "5 4 7 0 10 | 15 11 12 9 3 | 6 2 1 8 13" },
    { 16, 3, 1, 1, 42, 3, "11 1 13 15 2 | 12 4 14 5 8 | 9 6 0 3 7" },
    { 16, 4, 0, 0, 0, 0, "0 4 8 12 | 1 5 9 13 | 2 6 10 14 | 3 7 11 15" },
    { 16, 4, 0, 1, 0, 0, "0 4 8 12 | 1 5 9 13 | 2 6 10 14 | 3 7 11 15" },
    { 16, 4, 1, 0, 0, 0, "12 11 2 4 | 10 8 14 3 | 9 13 15 7 | 6 5 0 1" },
    { 16, 4, 1, 0, 0, 1, "5 11 1 10 | 15 2 0 3 | 6 7 9 13 | 4 12 8 14" },
    { 16, 4, 1, 0, 42, 3, "11 4 0 2 | 12 6 15 8 | 9 13 5 7 | 1 14 3 10" },
    { 16, 4, 1, 1, 0, 0, "12 11 2 4 | 10 8 14 3 | 9 13 15 7 | 6 5 0 1" },
    { 16, 4, 1, 1, 0, 1, "5 11 1 10 | 15 2 0 3 | 6 7 9 13 | 4 12 8 14" },
    { 16, 4, 1, 1, 42, 3, "11 4 0 2 | 12 6 15 8 | 9 13 5 7 | 1 14 3 10" },
    { 16, 7, 0, 0, 0, 0, "0 7 14 | 1 8 15 | 2 9 0 | 3 10 1 | 4 11 2 | 5 12 3 | 6 13 4" },
    { 16, 7, 0, 1, 0, 0, "0 7 | 1 8 | 2 9 | 3 10 | 4 11 | 5 12 | 6 13" },
    { 16, 7, 1, 0, 0, 0, "12 5 7 | 10 2 1 | 9 14 12 | 6 15 10 | 11 0 9 | 8 4 6 | 13 3 11" },
    { 16, 7, 1, 0, 0, 1, "5 12 13 | 15 1 14 | 6 0 5 | 4 9 15 | 11 8 6 | 2 10 4 | 7 3 11" },
    { 16, 7, 1, 0, 42, 3, "11 14 7 | 12 0 10 | 9 15 11 | 1 5 12 | 4 3 9 | 6 2 1 | 13 8 4" },
    { 16, 7, 1, 1, 0, 0, "12 5 | 10 2 | 9 14 | 6 15 | 11 0 | 8 4 | 13 3" },
    { 16, 7, 1, 1, 0, 1, "5 12 | 15 1 | 6 0 | 4 9 | 11 8 | 2 10 | 7 3" },
    { 16, 7, 1, 1, 42, 3, "11 14 | 12 0 | 9 15 | 1 5 | 4 3 | 6 2 | 13 8" },
};

/* Parse one rank's part of a case's want ("3 1 4 | ..."): its indices
   into out (room for 64), *end after the part; returns how many. */
static int64_t sampler_want_rank(const char *want, const char **end, int64_t *out)
{
    int64_t n = 0;
    const char *p = want;
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == '\0' || *p == '|')
            break;
        char *after;
        long long v = strtoll(p, &after, 10);
        ck_assert_ptr_ne(after, p);
        ck_assert_int_lt(n, 64);
        out[n++] = v;
        p = after;
    }
    *end = *p == '|' ? p + 1 : p;
    return n;
}

START_TEST(test_data_sampler_vs_torch)
{
    int ncases = (int)(sizeof sampler_cases / sizeof sampler_cases[0]);
    ck_assert_int_eq(ncases, 280);
    for (int c = 0; c < ncases; c++) {
        const sampler_case *sc = &sampler_cases[c];
        const char *part = sc->want;
        for (int64_t r = 0; r < sc->replicas; r++) {
            int64_t want[64];
            int64_t n = sampler_want_rank(part, &part, want);
            tc_distributed_sampler s;
            ck_assert_int_eq(tc_sampler_init(&s, sc->len, sc->replicas, r, sc->shuffle, sc->seed,
                                             sc->drop_last), 0);
            tc_sampler_set_epoch(&s, sc->epoch);
            ck_assert_msg(s.num_samples == n, "case %d rank %lld: %lld samples, torch %lld", c,
                          (long long)r, (long long)s.num_samples, (long long)n);
            ck_assert_int_eq(s.total_size, n * sc->replicas);
            int64_t *got = tc_sampler_indices(&s);
            ck_assert_ptr_nonnull(got);
            for (int64_t k = 0; k < n; k++)
                ck_assert_msg(got[k] == want[k], "case %d (len %lld, %lld replicas) rank %lld: "
                              "index %lld is %lld, torch %lld", c, (long long)sc->len,
                              (long long)sc->replicas, (long long)r, (long long)k,
                              (long long)got[k], (long long)want[k]);
            free(got);
        }
        ck_assert_str_eq(part, "");     /* as many ranks as torch printed */
    }
}
END_TEST

/* Larger cases, summarised: num_samples, the first 4 and last 2 indices of
   each rank and sum((k + 1) * index[k]), printed by torch 1.13 with
   DistributedSampler(range(len), N, r, shuffle=True, seed=seed,
   drop_last=drop).set_epoch(epoch). The seed 2**32 + 5 seeds the generator
   with its low 32 bits (c10's mt19937 takes a uint32); epoch -1 makes
   manual_seed(-1), which torch reads as 2**64 - 1. */
START_TEST(test_data_sampler_large)
{
    static const struct {
        int64_t len, replicas;
        bool drop_last;
        uint64_t seed;
        int64_t epoch, rank, num_samples, first[4], last[2], weighted;
    } cases[] = {
        { 1440, 4, false, 0, 0, 0, 360, { 44, 883, 1249, 552 }, { 1042, 931 }, 48038560 },
        { 1440, 4, false, 0, 0, 1, 360, { 1056, 854, 504, 80 }, { 179, 1055 }, 44525978 },
        { 1440, 4, false, 0, 0, 2, 360, { 259, 415, 1361, 1138 }, { 952, 1118 }, 47382353 },
        { 1440, 4, false, 0, 0, 3, 360, { 1014, 1300, 325, 866 }, { 402, 965 }, 48882480 },
        { 1440, 4, false, 0, 5, 0, 360, { 611, 494, 504, 1283 }, { 1351, 128 }, 47690928 },
        { 1440, 4, false, 0, 5, 1, 360, { 710, 930, 847, 565 }, { 384, 1229 }, 44947053 },
        { 1440, 4, false, 0, 5, 2, 360, { 433, 880, 809, 560 }, { 869, 832 }, 45557119 },
        { 1440, 4, false, 0, 5, 3, 360, { 492, 966, 1152, 1203 }, { 162, 657 }, 47608534 },
        { 1797, 4, false, 7, 2, 0, 450, { 55, 959, 426, 48 }, { 1017, 1404 }, 93118405 },
        { 1797, 4, false, 7, 2, 1, 450, { 1285, 1597, 1610, 1509 }, { 569, 55 }, 90200924 },
        { 1797, 4, false, 7, 2, 2, 450, { 251, 679, 203, 1452 }, { 257, 1285 }, 92192394 },
        { 1797, 4, false, 7, 2, 3, 450, { 1124, 1635, 1547, 50 }, { 1075, 251 }, 92541813 },
        { 1797, 4, true, 7, 2, 0, 449, { 55, 959, 426, 48 }, { 995, 1017 }, 92486605 },
        { 1797, 4, true, 7, 2, 1, 449, { 1285, 1597, 1610, 1509 }, { 794, 569 }, 90176174 },
        { 1797, 4, true, 7, 2, 2, 449, { 251, 679, 203, 1452 }, { 863, 257 }, 91614144 },
        { 1797, 4, true, 7, 2, 3, 449, { 1124, 1635, 1547, 50 }, { 1265, 1075 }, 92428863 },
        { 1797, 3, false, (UINT64_C(1) << 32) + 5, 1, 0, 599, { 1739, 299, 1772, 1095 },
          { 1175, 1665 }, 156207372 },
        { 1797, 3, false, (UINT64_C(1) << 32) + 5, 1, 1, 599, { 166, 291, 83, 1101 },
          { 441, 1755 }, 160093199 },
        { 1797, 3, false, (UINT64_C(1) << 32) + 5, 1, 2, 599, { 310, 1650, 550, 386 },
          { 708, 428 }, 168303327 },
        { 100, 3, false, 0, -1, 0, 34, { 71, 74, 72, 97 }, { 12, 24 }, 25579 },
        { 100, 3, false, 0, -1, 1, 34, { 67, 88, 25, 47 }, { 84, 71 }, 33443 },
        { 100, 3, false, 0, -1, 2, 34, { 18, 15, 61, 32 }, { 52, 67 }, 28300 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tc_distributed_sampler s;
        ck_assert_int_eq(tc_sampler_init(&s, cases[c].len, cases[c].replicas, cases[c].rank, true,
                                         cases[c].seed, cases[c].drop_last), 0);
        tc_sampler_set_epoch(&s, cases[c].epoch);
        ck_assert_int_eq(s.num_samples, cases[c].num_samples);
        int64_t *got = tc_sampler_indices(&s), n = s.num_samples, weighted = 0;
        ck_assert_ptr_nonnull(got);
        for (int k = 0; k < 4; k++)
            ck_assert_int_eq(got[k], cases[c].first[k]);
        ck_assert_int_eq(got[n - 2], cases[c].last[0]);
        ck_assert_int_eq(got[n - 1], cases[c].last[1]);
        for (int64_t k = 0; k < n; k++)
            weighted += (k + 1) * got[k];
        ck_assert_msg(weighted == cases[c].weighted, "case %zu", c);
        free(got);
    }
}
END_TEST

/* The property the chapter's 1, 2 and 4 ranks rest on: with len a
   multiple of N, rank r's k-th index is position k * N + r of the 1-rank
   order, so each global batch of B is split among the ranks. Worked out
   from the definition, against the 1-rank sampler. */
START_TEST(test_data_sampler_shards)
{
    tc_distributed_sampler one, s;
    ck_assert_int_eq(tc_sampler_init(&one, 1440, 1, 0, true, 3, false), 0);
    tc_sampler_set_epoch(&one, 4);
    int64_t *all = tc_sampler_indices(&one);
    ck_assert_ptr_nonnull(all);
    for (int64_t n = 1; n <= 4; n *= 2)
        for (int64_t r = 0; r < n; r++) {
            ck_assert_int_eq(tc_sampler_init(&s, 1440, n, r, true, 3, false), 0);
            tc_sampler_set_epoch(&s, 4);
            int64_t *mine = tc_sampler_indices(&s);
            ck_assert_ptr_nonnull(mine);
            ck_assert_int_eq(s.num_samples, 1440 / n);
            for (int64_t k = 0; k < s.num_samples; k++)
                ck_assert_int_eq(mine[k], all[k * n + r]);
            free(mine);
        }
    free(all);
}
END_TEST

/* Messages printed by torch 1.13 (ValueError). */
START_TEST(test_data_sampler_errors)
{
    tc_distributed_sampler s;
    tc_clear_error();
    ck_assert_int_eq(tc_sampler_init(&s, 10, 4, 4, true, 0, false), -1);
    ck_assert_str_eq(tc_error(), "Invalid rank 4, rank should be in the interval [0, 3]");
    ck_assert_int_eq(tc_sampler_init(&s, 10, 4, -1, true, 0, false), -1);
    ck_assert_str_eq(tc_error(), "Invalid rank -1, rank should be in the interval [0, 3]");
    ck_assert_int_eq(tc_sampler_init(&s, 10, 0, 0, true, 0, false), -1);
    ck_assert_str_eq(tc_error(), "Invalid rank 0, rank should be in the interval [0, -1]");
    ck_assert_int_eq(tc_sampler_init(&s, -1, 2, 0, true, 0, false), -1);
    ck_assert_str_eq(tc_error(), "__len__() should return >= 0");
    ck_assert_int_eq(tc_sampler_init(&s, INT64_MAX - 2, 3, 0, true, 0, false), -1);
    ck_assert_str_eq(tc_error(), "DistributedSampler: 9223372036854775805 samples on 3 replicas "
                                 "overflow int64");
    ck_assert_int_eq(tc_sampler_init(&s, INT64_MAX - 3, 3, 2, false, 0, false), 0);
    /* ceil((2^63 - 4) / 3) = (2^63 - 2) / 3 per rank, 2^63 - 2 in all: the largest that fits */
    ck_assert_int_eq(s.num_samples, (INT64_MAX - 1) / 3);
    ck_assert_int_eq(s.total_size, INT64_MAX - 1);
    ck_assert_int_eq(tc_sampler_init(NULL, 10, 2, 0, true, 0, false), -1);
    ck_assert_ptr_null(tc_sampler_indices(NULL));

    /* fields changed by hand are caught before they index anything */
    ck_assert_int_eq(tc_sampler_init(&s, 10, 4, 3, true, 0, false), 0);
    s.rank = 4;
    ck_assert_ptr_null(tc_sampler_indices(&s));
    ck_assert_str_eq(tc_error(), "Invalid rank 4, rank should be in the interval [0, 3]");
    s.rank = 3;
    s.num_samples = 4;
    ck_assert_ptr_null(tc_sampler_indices(&s));
    ck_assert_str_eq(tc_error(), "tc_sampler_indices: num_samples 4 and total_size 12 do not fit "
                                 "a dataset of 10 on 4 replicas");
    s = (tc_distributed_sampler){ .dataset_len = 0, .num_samples = 3, .num_replicas = 1 };
    ck_assert_ptr_null(tc_sampler_indices(&s));
    ck_assert_str_eq(tc_error(), "tc_sampler_indices: num_samples 3 and total_size 0 do not fit "
                                 "a dataset of 0 on 1 replicas");
}
END_TEST

/* ----------------------------------------------------- the digits file */

static char data_dir[256];

static void data_setup(void)
{
    const char *tmpdir = getenv("TMPDIR");
    snprintf(data_dir, sizeof data_dir, "%s/tc-data-XXXXXX",
             tmpdir != NULL && *tmpdir != '\0' ? tmpdir : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(data_dir));
}

static void data_teardown(void)
{
    char path[512];
    static const char *const names[] = { "f.csv" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", data_dir, names[i]);
        unlink(path);
    }
    rmdir(data_dir);
}

/* A good line of the test files: pixel j of sample k is (k + j) % 17,
   the class k % 10. */
static void data_good_line(FILE *f, int k, const char *newline)
{
    for (int j = 0; j < 64; j++)
        fprintf(f, "%d,", (k + j) % 17);
    fprintf(f, "%d%s", k % 10, newline);
}

/* Write DIR/f.csv: `good` good lines, then tail; its path in path. */
static void data_file(char path[512], int good, const char *tail)
{
    snprintf(path, 512, "%s/f.csv", data_dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    for (int k = 0; k < good; k++)
        data_good_line(f, k, "\n");
    fputs(tail, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* Load a file of `good` good lines and tail; it must fail with the
   message "PATH" + suffix, leaving the dataset empty. */
static void data_refused(int line, int good, const char *tail, const char *suffix)
{
    char path[512], want[1024];
    data_file(path, good, tail);
    snprintf(want, sizeof want, "%s%s", path, suffix);
    tc_dataset d = { (tc_tensor *)1, (tc_tensor *)1 };   /* overwritten, never freed */
    tc_clear_error();
    ck_assert_msg(tc_digits_load(path, &d) == -1, "line %d: loaded", line);
    ck_assert_msg(d.images == NULL && d.labels == NULL, "line %d: dataset not emptied", line);
    ck_assert_msg(tc_error() != NULL && strcmp(tc_error(), want) == 0,
                  "line %d: message \"%s\", want \"%s\"", line, tc_error(), want);
}

/* A line of 64 pixels, each `pixel` (text), then `label` and newline. */
static const char *data_line_with(int at, const char *value)
{
    static char buf[1024];
    size_t used = 0;
    for (int j = 0; j < 65; j++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", j ? "," : "",
                                 j == at ? value : "1");
    snprintf(buf + used, sizeof buf - used, "\n");
    return buf;
}

START_TEST(test_data_load_small)
{
    char path[512];
    tc_dataset d;
    for (int crlf = 0; crlf < 2; crlf++) {
        snprintf(path, sizeof path, "%s/f.csv", data_dir);
        FILE *f = fopen(path, "wb");
        ck_assert_ptr_nonnull(f);
        for (int k = 0; k < 300; k++)   /* past the reader's first 256 rows of room */
            data_good_line(f, k, crlf ? "\r\n" : "\n");
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_msg(tc_digits_load(path, &d) == 0, "%s", tc_error());
        ASSERT_SIZES(d.images, 300, 64);
        ASSERT_SIZES(d.labels, 300);
        ck_assert_int_eq(d.images->dtype, TC_FLOAT32);
        ck_assert_int_eq(d.labels->dtype, TC_INT64);
        ck_assert_int_eq(tc_dataset_len(&d), 300);
        const float *x = tc_data_ptr(d.images);
        const int64_t *y = tc_data_ptr(d.labels);
        for (int k = 0; k < 300; k++) {
            for (int j = 0; j < 64; j++)
                ck_assert(x[k * 64 + j] == (float)((k + j) % 17) / 16.0f);
            ck_assert_int_eq(y[k], k % 10);
        }
        tc_dataset_free(&d);
        ck_assert_ptr_null(d.images);
        tc_dataset_free(&d);            /* twice: harmless */
    }
}
END_TEST

START_TEST(test_data_load_bad_files)
{
    char path[512], want[600];
    tc_dataset d;

    /* missing */
    snprintf(path, sizeof path, "%s/none.csv", data_dir);
    snprintf(want, sizeof want, "cannot open %s: No such file or directory", path);
    ck_assert_int_eq(tc_digits_load(path, &d), -1);
    ck_assert_str_eq(tc_error(), want);
    ck_assert_ptr_null(d.images);

    /* a directory opens, then cannot be read */
    snprintf(want, sizeof want, "cannot read %s: Is a directory", data_dir);
    ck_assert_int_eq(tc_digits_load(data_dir, &d), -1);
    ck_assert_str_eq(tc_error(), want);

    /* empty, or only a newline's worth of nothing */
    data_refused(__LINE__, 0, "", ": no samples");
    data_refused(__LINE__, 0, "\n", ":1: expected 65 values, found 0");

    /* truncated: the last line stops in the middle (or just before its newline) */
    data_refused(__LINE__, 2, "0,0,5,1", ":3: line 3 is not terminated (a truncated file?)");
    char cut[1024];
    snprintf(cut, sizeof cut, "%s", data_line_with(-1, ""));
    cut[strlen(cut) - 1] = '\0';
    data_refused(__LINE__, 1, cut, ":2: line 2 is not terminated (a truncated file?)");
    data_refused(__LINE__, 1, "1,2\r", ":2: line 2 is not terminated (a truncated file?)");

    /* wrong column count: one short, one over, a blank line */
    char line[1024];
    snprintf(line, sizeof line, "%s", data_line_with(-1, ""));
    char *last_comma = strrchr(line, ',');
    snprintf(last_comma, 3, "\n");                  /* drop the class: 64 values */
    data_refused(__LINE__, 4, line, ":5: expected 65 values, found 64");
    snprintf(line, sizeof line, "7,%s", data_line_with(-1, ""));
    data_refused(__LINE__, 11, line, ":12: expected 65 values, found 66");
    data_refused(__LINE__, 2, "\n", ":3: expected 65 values, found 0");
    /* the count is reported before a bad value on the same line */
    snprintf(line, sizeof line, "99,%s", data_line_with(-1, ""));
    data_refused(__LINE__, 0, line, ":1: expected 65 values, found 66");

    /* values out of range */
    data_refused(__LINE__, 6, data_line_with(5, "17"), ":7: value 17 out of range 0..16");
    data_refused(__LINE__, 0, data_line_with(0, "-1"), ":1: value -1 out of range 0..16");
    data_refused(__LINE__, 3, data_line_with(64, "10"), ":4: class 10 out of range 0..9");
    data_refused(__LINE__, 0, data_line_with(7, "123456789012345678901234567890"),
                 ":1: value 123456789012345678901234... out of range 0..16");
    /* not integers; the first bad value of the line is the one named */
    data_refused(__LINE__, 1, data_line_with(3, "1.5"), ":2: \"1.5\" is not an integer");
    data_refused(__LINE__, 1, data_line_with(3, ""), ":2: \"\" is not an integer");
    data_refused(__LINE__, 1, data_line_with(3, " 3"), ":2: \" 3\" is not an integer");
    data_refused(__LINE__, 1, data_line_with(3, "-"), ":2: \"-\" is not an integer");
    data_refused(__LINE__, 1, data_line_with(3, "3-"), ":2: \"3-\" is not an integer");
    snprintf(line, sizeof line, "%s", data_line_with(2, "x"));
    line[2 * 9] = 'y';                              /* value 9 is bad too, later */
    data_refused(__LINE__, 1, line, ":2: \"x\" is not an integer");

    /* and the edges that are fine: -0, 0016, class 9 */
    char ok[2048];
    snprintf(ok, sizeof ok, "%s", data_line_with(0, "-0"));
    snprintf(ok + strlen(ok), sizeof ok - strlen(ok), "%s", data_line_with(1, "0016"));
    snprintf(ok + strlen(ok), sizeof ok - strlen(ok), "%s", data_line_with(64, "9"));
    data_file(path, 0, ok);
    ck_assert_msg(tc_digits_load(path, &d) == 0, "%s", tc_error());
    ck_assert(testing_get(d.images, IDX(0, 0)) == 0.0);
    ck_assert(testing_get(d.images, IDX(1, 1)) == 1.0);
    ck_assert(testing_get(d.images, IDX(1, 0)) == 0.0625);
    ck_assert(testing_get(d.labels, IDX(2)) == 9.0);
    tc_dataset_free(&d);

    ck_assert_int_eq(tc_digits_load(NULL, &d), -1);
    ck_assert_int_eq(tc_digits_load(path, NULL), -1);
}
END_TEST

/* The repository's data/digits.csv (the tests run from the top of the
   tree): 1,797 samples; the per-class counts and the pixel sum (561,718
   sixteenths) were counted with Python's csv module from the file. */
START_TEST(test_data_digits_file)
{
    tc_dataset d;
    ck_assert_msg(tc_digits_load("data/digits.csv", &d) == 0, "%s", tc_error());
    ASSERT_SIZES(d.images, 1797, 64);
    static const int64_t want[10] = { 178, 182, 177, 183, 181, 182, 181, 179, 174, 180 };
    int64_t count[10] = { 0 };
    const int64_t *y = tc_data_ptr(d.labels);
    for (int64_t i = 0; i < 1797; i++) {
        ck_assert(y[i] >= 0 && y[i] <= 9);
        count[y[i]]++;
    }
    ck_assert_mem_eq(count, want, sizeof want);
    const float *x = tc_data_ptr(d.images);
    double sixteenths = 0;
    for (int64_t i = 0; i < 1797 * 64; i++)
        sixteenths += x[i] * 16.0;
    ck_assert(sixteenths == 561718.0);
    /* the first line starts 0,0,5,13,9,1; the last one ends 14,12,1,0,8 */
    ck_assert(x[2] == 5.0f / 16 && x[3] == 13.0f / 16 && x[4] == 9.0f / 16);
    ck_assert(x[1796 * 64 + 60] == 14.0f / 16 && x[1796 * 64 + 62] == 1.0f / 16);
    ck_assert_int_eq(y[0], 0);
    ck_assert_int_eq(y[1796], 8);
    tc_dataset_free(&d);
}
END_TEST

/* ------------------------------------------------- split and batches */

/* tc_dataset_split(all, 357, 0): the test set is randperm(1797) from
   torch.Generator().manual_seed(0)'s first 357 indices, the training set
   the rest. torch 1.13 printed, for that permutation p:
   p[:5] = [362, 1568, 1440, 1761, 815], p[357:362] = [331, 764, 1496,
   1748, 1500], p[-3:] = [1504, 80, 317]; bincount(y[p[:357]]) = [38, 31,
   50, 31, 34, 39, 33, 31, 40, 30] and of y[p[357:]] = [140, 151, 127,
   152, 147, 143, 148, 148, 134, 150]. */
START_TEST(test_data_split)
{
    tc_dataset all, train, test;
    ck_assert_msg(tc_digits_load("data/digits.csv", &all) == 0, "%s", tc_error());
    ck_assert_int_eq(tc_dataset_split(&all, 357, 0, &train, &test), 0);
    ck_assert_int_eq(tc_dataset_len(&train), 1440);
    ck_assert_int_eq(tc_dataset_len(&test), 357);
    ASSERT_SIZES(train.images, 1440, 64);
    ASSERT_SIZES(test.images, 357, 64);

    static const int64_t test_first[] = { 362, 1568, 1440, 1761, 815 };
    static const int64_t train_first[] = { 331, 764, 1496, 1748, 1500 };
    static const int64_t train_last[] = { 1504, 80, 317 };
    tc_tensor *x, *y;
    ck_assert_int_eq(tc_dataset_batch(&all, test_first, 5, &x, &y), 0);
    ck_assert(tc_equal(K(tc_narrow(test.images, 0, 0, 5)), x));
    ck_assert(tc_equal(K(tc_narrow(test.labels, 0, 0, 5)), y));
    tc_release(x);
    tc_release(y);
    ck_assert_int_eq(tc_dataset_batch(&all, train_first, 5, &x, &y), 0);
    ck_assert(tc_equal(K(tc_narrow(train.images, 0, 0, 5)), x));
    ck_assert(tc_equal(K(tc_narrow(train.labels, 0, 0, 5)), y));
    tc_release(x);
    tc_release(y);
    ck_assert_int_eq(tc_dataset_batch(&all, train_last, 3, &x, &y), 0);
    ck_assert(tc_equal(K(tc_narrow(train.images, 0, 1437, 3)), x));
    ck_assert(tc_equal(K(tc_narrow(train.labels, 0, 1437, 3)), y));
    tc_release(x);
    tc_release(y);

    static const int64_t want_test[10] = { 38, 31, 50, 31, 34, 39, 33, 31, 40, 30 };
    static const int64_t want_train[10] = { 140, 151, 127, 152, 147, 143, 148, 148, 134, 150 };
    int64_t count_test[10] = { 0 }, count_train[10] = { 0 };
    for (int64_t i = 0; i < 357; i++)
        count_test[((const int64_t *)tc_data_ptr(test.labels))[i]]++;
    for (int64_t i = 0; i < 1440; i++)
        count_train[((const int64_t *)tc_data_ptr(train.labels))[i]]++;
    ck_assert_mem_eq(count_test, want_test, sizeof want_test);
    ck_assert_mem_eq(count_train, want_train, sizeof want_train);

    /* all held out, none held out */
    tc_dataset_free(&train);
    tc_dataset_free(&test);
    ck_assert_int_eq(tc_dataset_split(&all, 1797, 0, &train, &test), 0);
    ck_assert_int_eq(tc_dataset_len(&train), 0);
    ASSERT_SIZES(train.images, 0, 64);
    ck_assert_int_eq(tc_dataset_len(&test), 1797);
    tc_dataset_free(&train);
    tc_dataset_free(&test);
    ck_assert_int_eq(tc_dataset_split(&all, 0, 0, &train, &test), 0);
    ck_assert_int_eq(tc_dataset_len(&train), 1797);
    ck_assert_int_eq(tc_dataset_len(&test), 0);
    tc_dataset_free(&train);
    tc_dataset_free(&test);

    tc_clear_error();
    ck_assert_int_eq(tc_dataset_split(&all, 1798, 0, &train, &test), -1);
    ck_assert_str_eq(tc_error(), "cannot hold out 1798 of 1797 samples");
    ck_assert_ptr_null(train.images);
    ck_assert_int_eq(tc_dataset_split(&all, -1, 0, &train, &test), -1);
    ck_assert_str_eq(tc_error(), "cannot hold out -1 of 1797 samples");
    tc_dataset none = { NULL, NULL };
    ck_assert_int_eq(tc_dataset_split(&none, 0, 0, &train, &test), -1);
    ck_assert_str_eq(tc_error(),
                     "not a dataset: expected images (n, k) float32 and labels (n) int64, "
                     "contiguous");
    tc_dataset_free(&all);
}
END_TEST

/* Batches: rows copied in the order asked, negative indices from the end
   (as dataset[-1]), torch's IndexError text ("index 7 is out of bounds for
   dimension 0 with size 5", printed by torch.zeros(5, 3)[7]). */
START_TEST(test_data_batch)
{
    tc_dataset d = { tc_from_data(TC_SHAPE(5, 3), TC_FLOAT32,
                                  (const float[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                                   14 }),
                     tc_from_data(TC_SHAPE(5), TC_INT64, (const int64_t[]){ 9, 8, 7, 6, 5 }) };
    tc_tensor *x, *y;
    ck_assert_int_eq(tc_dataset_batch(&d, IDX(4, 0, -1, 2, 2), 5, &x, &y), 0);
    static const float want_x[] = { 12, 13, 14, 0, 1, 2, 12, 13, 14, 6, 7, 8, 6, 7, 8 };
    static const int64_t want_y[] = { 5, 9, 5, 7, 7 };
    ASSERT_SIZES(x, 5, 3);
    ck_assert_mem_eq(tc_data_ptr(x), want_x, sizeof want_x);
    ck_assert_mem_eq(tc_data_ptr(y), want_y, sizeof want_y);
    tc_release(x);
    tc_release(y);

    ck_assert_int_eq(tc_dataset_batch(&d, NULL, 0, &x, &y), 0);
    ASSERT_SIZES(x, 0, 3);
    ASSERT_SIZES(y, 0);
    tc_release(x);
    tc_release(y);

    tc_clear_error();
    ck_assert_int_eq(tc_dataset_batch(&d, IDX(0, 7), 2, &x, &y), -1);
    ck_assert_str_eq(tc_error(), "index 7 is out of bounds for dimension 0 with size 5");
    ck_assert_ptr_null(x);
    ck_assert_ptr_null(y);
    ck_assert_int_eq(tc_dataset_batch(&d, IDX(-6), 1, &x, &y), -1);
    ck_assert_str_eq(tc_error(), "index -6 is out of bounds for dimension 0 with size 5");
    ck_assert_int_eq(tc_dataset_batch(&d, IDX(0), -1, &x, &y), -1);
    ck_assert_int_eq(tc_dataset_batch(&d, NULL, 1, &x, &y), -1);
    ck_assert_int_eq(tc_dataset_batch(&d, IDX(0), 1, NULL, &y), -1);

    /* a dataset whose labels do not match its images is refused */
    tc_tensor *labels = d.labels;
    d.labels = tc_from_data(TC_SHAPE(4), TC_INT64, (const int64_t[]){ 1, 2, 3, 4 });
    ck_assert_int_eq(tc_dataset_batch(&d, IDX(0), 1, &x, &y), -1);
    tc_release(d.labels);
    d.labels = labels;
    tc_dataset_free(&d);
    ck_assert_int_eq(tc_dataset_len(&d), 0);
}
END_TEST

static void ch10_add_data(Suite *s)
{
    TCase *tc = testing_tcase("data", NULL, NULL);
    tcase_add_test(tc, test_data_sampler_vs_torch);
    tcase_add_test(tc, test_data_sampler_large);
    tcase_add_test(tc, test_data_sampler_shards);
    tcase_add_test(tc, test_data_sampler_errors);
    tcase_add_test(tc, test_data_digits_file);
    tcase_add_test(tc, test_data_split);
    tcase_add_test(tc, test_data_batch);
    suite_add_tcase(s, tc);

    TCase *files = testing_tcase("data_files", data_setup, data_teardown);
    tcase_add_test(files, test_data_load_small);
    tcase_add_test(files, test_data_load_bad_files);
    suite_add_tcase(s, files);
}
