/*
 * The concrete (move-by-move) search of machfsol.odds.solver, compiled.
 *
 * This is the same search as the Python class _ConcreteSearch, state for state: the
 * same moves tried in the same order, the same reductions (each switchable by a flag
 * bit), the same dead-end test, the same rounds of the iterative search and the same
 * transposition table, so it counts the same states (the tests hold the two to equal
 * node counts on thousands of deals) and finds the same line.  Only the representation
 * differs, to be fast:
 *
 *   - the discard pile is one array shared by all frames (a move only ever takes its
 *     top or puts a drawn card on it; a frame that takes the top puts it back when the
 *     move is undone);
 *   - each King pile is an array of its cards plus a 12-bit code of the cards above its
 *     King (which of the two cards of the colour each rank holds, under a leading 1:
 *     every pile holds one card per rank from the King down, so that says everything);
 *   - a state's key is 128 bits: tableau and stock position, the King-pile codes (as
 *     sets of two per colour with the symmetry reduction, as solver.py's key) and the
 *     Ace piles;
 *   - the lost states are kept in an open-addressing hash set of keys.
 *
 * The module has one function, search(); see its docstring.  Why each reduction is
 * sound is told in solver.py's docstring and in docs/ODDS.md: it is the same search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAXN 52
#define MAX_LINE 1024
#define NO_BLOCK (1 << 30) /* a card that no discard-pile level blocks */
#define FOR_EVER (-1)      /* a host that never takes a card again */

/* Reductions, one bit each (solver.py's Reductions, in its field order). */
enum {
    DRAW_FIRST = 1,
    SAFE_MOVES = 2,
    KINGS_STAY = 4,
    SYMMETRY = 8,
    DEAD_ENDS = 16,
    ITERATIVE = 32,
    ENDGAME = 64,
    TWINS = 128,
    STOCK_ORDER = 256,
    /* Every bit this build knows, exported as REDUCTIONS: solver.py compares it with its
       own list, since a module built from an older _concrete.c (a checkout updated
       without rebuilding) would ignore a new bit and search differently. */
    REDUCTION_BITS = DRAW_FIRST | SAFE_MOVES | KINGS_STAY | SYMMETRY | DEAD_ENDS | ITERATIVE |
                     ENDGAME | TWINS | STOCK_ORDER,
};

enum { WON = 1, LOST = 0, STOPPED = -1, FAILED = -2 };

typedef struct {
    uint64_t a, b; /* a == 0: an empty slot (a real key has bit 63 of a set) */
} Key;

typedef struct {
    Key *slots;
    size_t mask; /* capacity - 1, capacity a power of two */
    size_t used;
} KeySet;

typedef struct {
    int n, r, slots, flags;
    int order[MAXN];
    int suit[MAXN], rank[MAXN];
    uint64_t takes[MAXN];     /* cards a King pile with this top accepts */
    uint64_t host_mask[MAXN]; /* non-Ace cards that may go on this card */
    int host1[MAXN], host2[MAXN];
    int downwards[MAXN], n_down;
    int is_king[MAXN];
    uint64_t full;
    /* the search's mutable state shared by all frames */
    int stack[MAXN];
    int pile[4][16];
    int plen[4];
    unsigned pbits[4];
    int line_card[MAX_LINE], line_place[MAX_LINE];
    int line_len;
    int draw_early;
    int64_t nodes, bound, limit;
    int64_t stock_after; /* STOCK_ORDER: the stock-order test after this many states */
    int place_discard, place_ace, place_king;
    int interrupted;
    KeySet seen;
} Search;

/* ------------------------------------------------------------------ the key set */

static uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static size_t key_hash(Key k) { return (size_t)mix(k.a * 0x9e3779b97f4a7c15ULL ^ k.b); }

static int key_eq(const Key *x, const Key *y) { return x->a == y->a && x->b == y->b; }

/* A zeroed table of ``capacity`` keys. Large tables are asked to live on huge pages
 * (Linux's transparent huge pages, where the system allows them): a probe lands
 * anywhere in hundreds of megabytes, and with 4 KB pages nearly every probe also
 * misses the address-translation cache. */
static Key *keys_alloc(size_t capacity) {
    size_t bytes = capacity * sizeof(Key);
    if (bytes < ((size_t)4 << 20)) return calloc(capacity, sizeof(Key));
    void *table = NULL;
    if (posix_memalign(&table, (size_t)2 << 20, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(table, bytes, MADV_HUGEPAGE);
#endif
    memset(table, 0, bytes);
    return table;
}

static int keyset_init(KeySet *set, size_t capacity) {
    set->slots = keys_alloc(capacity);
    set->mask = capacity - 1;
    set->used = 0;
    return set->slots != NULL;
}

static int keyset_has(const KeySet *set, Key k) {
    size_t i = key_hash(k) & set->mask;
    for (;;) {
        const Key *slot = &set->slots[i];
        if (slot->a == 0) return 0;
        if (key_eq(slot, &k)) return 1;
        i = (i + 1) & set->mask;
    }
}

static void keyset_put(Key *slots, size_t mask, Key k) {
    size_t i = key_hash(k) & mask;
    while (slots[i].a != 0) {
        if (key_eq(&slots[i], &k)) return;
        i = (i + 1) & mask;
    }
    slots[i] = k;
}

/* Add a key; 0 when memory ran out. */
static int keyset_add(KeySet *set, Key k) {
    if (2 * (set->used + 1) > set->mask + 1) {
        size_t capacity = 2 * (set->mask + 1);
        Key *bigger = keys_alloc(capacity);
        if (bigger == NULL) return 0;
        for (size_t i = 0; i <= set->mask; i++)
            if (set->slots[i].a != 0) keyset_put(bigger, capacity - 1, set->slots[i]);
        free(set->slots);
        set->slots = bigger;
        set->mask = capacity - 1;
    }
    size_t before = set->used;
    size_t i = key_hash(k) & set->mask;
    while (set->slots[i].a != 0) {
        if (key_eq(&set->slots[i], &k)) return 1;
        i = (i + 1) & set->mask;
    }
    set->slots[i] = k;
    set->used = before + 1;
    return 1;
}

/* ---------------------------------------------------------------- King piles */

static void pile_push(Search *s, int i, int card) {
    int k = s->plen[i];
    s->pile[i][k] = card;
    if (k >= 1) s->pbits[i] |= (unsigned)((s->suit[card] >> 1) & 1) << (k - 1);
    s->plen[i] = k + 1;
}

static void pile_pop(Search *s, int i) {
    int k = --s->plen[i];
    if (k >= 1) s->pbits[i] &= ~(1u << (k - 1));
}

static int pile_top(const Search *s, int i) { return s->plen[i] ? s->pile[i][s->plen[i] - 1] : -1; }

/* The cards above the King: 0 for a King alone or an empty pile (solver.py strips the
 * King, so both are 0 there too), else a leading 1 and one bit per card. */
static unsigned code_above_king(const Search *s, int i) {
    return s->plen[i] >= 2 ? (1u << (s->plen[i] - 1)) | s->pbits[i] : 0;
}

/* The whole pile, King included (for the key without the symmetry reduction). */
static unsigned code_whole(const Search *s, int i) {
    return s->plen[i] ? (1u << (s->plen[i] - 1)) | s->pbits[i] : 0;
}

static Key make_key(const Search *s, int p, uint64_t tab, uint32_t ace) {
    Key k;
    uint64_t piles;
    if (s->flags & SYMMETRY) {
        uint64_t sp = code_above_king(s, 0), cl = code_above_king(s, 2);
        uint64_t he = code_above_king(s, 1), di = code_above_king(s, 3);
        if (sp > cl) { uint64_t t = sp; sp = cl; cl = t; }
        if (he > di) { uint64_t t = he; he = di; di = t; }
        piles = sp | cl << 12 | he << 24 | di << 36;
    } else {
        piles = (uint64_t)code_whole(s, 0) | (uint64_t)code_whole(s, 1) << 12 |
                (uint64_t)code_whole(s, 2) << 24 | (uint64_t)code_whole(s, 3) << 36;
    }
    k.a = tab | ((uint64_t)p << 52) | (1ULL << 63);
    k.b = piles | ((uint64_t)ace << 48);
    return k;
}

/* ---------------------------------------------------------------- helpers */

static uint64_t ace_next_of(const Search *s, uint32_t ace) {
    uint64_t found = 0;
    for (int suit = 0; suit < 4; suit++) {
        int height = (ace >> (4 * suit)) & 15;
        if (height < s->r) found |= 1ULL << (suit * s->r + height);
    }
    return found;
}

static int line_push(Search *s, int card, int place) {
    if (s->line_len >= MAX_LINE) return 0;
    s->line_card[s->line_len] = card;
    s->line_place[s->line_len] = place;
    s->line_len++;
    return 1;
}

/* ---------------------------------------------------------------- dead ends */

/* The stuck-cards test of solver.py's _ConcreteSearch._dead_end, step for step.
 * ``drawn`` < 0: the stock is available at once and never waits (the dead-end test).
 * Else the stock-order test's view of one pile level (solver.py's _stock_counts): the
 * stock's next ``drawn`` cards are drawn (available, and waiting in the tableau when
 * stuck, like tableau cards), the others not yet (held back), except that with
 * ``rest_drawn`` the cards after those are drawn too but not counted as waiting.
 * ``counts``, when given, receives the number of waiting cards at each level below top
 * (then the whole count is made, not stopped at the first overflow). */
/* The lowest level at which a card free only below level ``free`` is counted waiting:
 * -1 (a card that only the pile's end lets out, in the stock-order test) is every
 * level down to 0 (solver.py's _from_level; the difference array has no level -1). */
static int from_level(int free) { return free > 0 ? free : 0; }

static int dead_end_at(const Search *s, int p, int top, uint64_t tab, uint32_t ace,
                       uint64_t fmask, int drawn, int rest_drawn, int *counts) {
    int level[MAXN], hold[MAXN], ace_block[MAXN], king_block[MAXN], host_block[MAXN];
    int out[MAXN];
    int diff[MAXN + 2];
    int n = s->n, r = s->r;
    uint64_t stock = 0;
    if (top < 2) return 0;
    for (int c = 0; c < n; c++) {
        level[c] = hold[c] = host_block[c] = ace_block[c] = king_block[c] = NO_BLOCK;
    }
    for (int d = 0; d < top; d++) level[s->stack[d]] = hold[s->stack[d]] = d;
    if (drawn >= 0) {
        /* Drawn: available from the top level on ("top"); held back: not before the
         * pile is gone (-1). Only comparisons with pile levels matter (docs/ODDS.md). */
        for (int q = p; q < n; q++) {
            int c = s->order[q], h = q - p < drawn || rest_drawn ? top : -1;
            stock |= 1ULL << c;
            level[c] = hold[c] = h;
            out[c] = q - p < drawn ? top - 1 : -1;
            if (s->is_king[c]) host_block[c] = h;
        }
    }
    int changed = 1;
    while (changed) {
        for (int suit = 0; suit < 4; suit++) {
            int base = suit * r, deepest = NO_BLOCK;
            for (int c = base + ((ace >> (4 * suit)) & 15); c < base + r; c++) {
                ace_block[c] = deepest;
                if (hold[c] < deepest) deepest = hold[c];
            }
        }
        changed = 0;
        for (int i = 0; i < 4; i++) {
            int above = NO_BLOCK;
            for (int k = s->plen[i] - 1; k >= 0; k--) {
                int c = s->pile[i][k];
                host_block[c] = above;
                if (above < hold[c]) {
                    hold[c] = above;
                    changed = 1;
                }
                if (ace_block[c] < above) above = ace_block[c];
            }
        }
    }
    uint64_t on_ace = 0;
    for (int suit = 0; suit < 4; suit++) {
        int height = (ace >> (4 * suit)) & 15;
        on_ace |= ((1ULL << height) - 1) << (suit * r);
    }
    for (int j = 0; j < s->n_down; j++) {
        int c = s->downwards[j];
        if ((fmask >> c) & 1) {
            if ((on_ace >> c) & 1) host_block[c] = FOR_EVER;
            continue;
        }
        int block = host_block[s->host1[c]];
        if (host_block[s->host2[c]] > block) block = host_block[s->host2[c]];
        king_block[c] = block;
        host_block[c] = level[c] < block ? level[c] : block;
    }
    if (s->flags & TWINS) {
        /* Twin hosts compete for their own two hosts: both can be King-pile tops only
         * once both their hosts can be (solver.py's _dead_end). Higher ranks first,
         * since a pair's hosts are the pair of the rank above. */
        for (int j = 0; j < s->n_down; j++) {
            int c = s->downwards[j], c2 = c + 2 * r;
            if (s->suit[c] >= 2 || ((fmask >> c) & 1) || ((fmask >> c2) & 1)) continue;
            int b1 = host_block[s->host1[c]], b2 = host_block[s->host2[c]];
            int both = b1 < b2 ? b1 : b2;
            if (level[c] < both) both = level[c];
            if (level[c2] < both) both = level[c2];
            if (host_block[c] < host_block[c2]) host_block[c] = both;
            else host_block[c2] = both;
        }
    }
    memset(diff, 0, sizeof(int) * (size_t)(top + 1));
    if (s->flags & TWINS) {
        /* Twins (the two cards of one colour and rank) have the same two hosts, and a
         * host takes one card: while only one host can be a King-pile top, one twin
         * more than the per-card spans count must wait (solver.py's _dead_end). */
        for (int j = 0; j < s->n_down; j++) {
            int c = s->downwards[j], c2 = c + 2 * r;
            if (s->suit[c] >= 2 || ((fmask >> c) & 1) || ((fmask >> c2) & 1)) continue;
            int d1 = ((stock >> c) & 1)    ? out[c]
                     : level[c] < NO_BLOCK ? level[c]
                     : ((tab >> c) & 1)    ? top - 1
                                           : -1;
            int d2 = ((stock >> c2) & 1)    ? out[c2]
                     : level[c2] < NO_BLOCK ? level[c2]
                     : ((tab >> c2) & 1)    ? top - 1
                                            : -1;
            int b1 = host_block[s->host1[c]], b2 = host_block[s->host2[c]];
            int lo = b1 < b2 ? b1 : b2, hi = (b1 < b2 ? b2 : b1) - 1;
            if (ace_block[c] > lo) lo = ace_block[c];
            if (ace_block[c2] > lo) lo = ace_block[c2];
            if (d1 < hi) hi = d1;
            if (d2 < hi) hi = d2;
            if (lo < 0) lo = 0;
            if (lo <= hi) {
                diff[lo]++;
                diff[hi + 1]--;
            }
        }
    }
    for (int d = 0; d < top; d++) {
        int c = s->stack[d];
        int free = ace_block[c] > king_block[c] ? ace_block[c] : king_block[c];
        if (free < d) {
            diff[from_level(free)]++;
            diff[d + 1]--;
        }
    }
    uint64_t rest = tab;
    while (rest) {
        int c = __builtin_ctzll(rest);
        rest &= rest - 1;
        int free = ace_block[c] > king_block[c] ? ace_block[c] : king_block[c];
        if (free < top) {
            diff[from_level(free)]++;
            diff[top]--;
        }
    }
    for (int q = p; q < p + drawn && q < n; q++) {
        /* A drawn stock card must leave the pile before the pile's level below it: like
         * a tableau card. */
        int c = s->order[q];
        if (s->rank[c] == 0 || s->is_king[c]) continue; /* it goes to its pile at once */
        int free = ace_block[c] > king_block[c] ? ace_block[c] : king_block[c];
        if (free < top) {
            diff[from_level(free)]++;
            diff[top]--;
        }
    }
    int stuck = 0;
    if (counts != NULL) {
        for (int lv = 0; lv < top; lv++) {
            stuck += diff[lv];
            counts[lv] = stuck;
        }
        return 0;
    }
    for (int lv = 0; lv < top; lv++) {
        stuck += diff[lv];
        if (stuck > s->slots) return 1;
    }
    return 0;
}

static int dead_end(const Search *s, int top, uint64_t tab, uint32_t ace, uint64_t fmask) {
    return dead_end_at(s, 0, top, tab, ace, fmask, -1, 0, NULL);
}

/* The stock-order test (solver.py's _ConcreteSearch._stock_dead): going down the pile's
 * levels from the top, the number of the stock's cards drawn can only grow; the state is
 * lost when every such schedule meets a level where too many cards wait. One walk down
 * the levels with the fewest cards drawn that keep each level within the spaces; each
 * number drawn is counted only when the walk needs it (solver.py counts them all: the
 * same answer). */
static int stock_dead(const Search *s, int p, int top, uint64_t tab, uint32_t ace,
                      uint64_t fmask) {
    int counts[MAXN + 1][MAXN];
    int most = s->n - p;
    int drawn = 0, made = -1;
    if (top < 2) return 0;
    for (int lv = top - 1; lv >= 0; lv--) {
        for (;;) {
            if (drawn > made) {
                made = drawn;
                dead_end_at(s, p, top, tab, ace, fmask, drawn, drawn == most, counts[drawn]);
            }
            if (counts[drawn][lv] <= s->slots) break;
            if (++drawn > most) return 1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- the search */

static int dfs(Search *s, int p, int top, uint64_t tab, uint32_t ace, uint64_t fmask);

/* Fill the space a tableau card left: from the discard top, else from the stock (Aces
 * and Kings drawn go to their piles), then search on. The caller puts back the
 * discard top. */
static int fill_and_search(Search *s, int p, int top, uint64_t tab, uint32_t ace, uint64_t fmask) {
    if (top) return dfs(s, p, top - 1, tab | (1ULL << s->stack[top - 1]), ace, fmask);
    int kings_set[4], n_kings = 0;
    while (p < s->n) {
        int card = s->order[p++];
        if (s->rank[card] == 0) {
            ace += 1u << (4 * s->suit[card]);
            fmask |= 1ULL << card;
        } else if (s->rank[card] == s->r - 1) {
            pile_push(s, s->suit[card], card);
            kings_set[n_kings++] = s->suit[card];
            fmask |= 1ULL << card;
        } else {
            tab |= 1ULL << card;
            break;
        }
    }
    int found = dfs(s, p, 0, tab, ace, fmask);
    while (n_kings) pile_pop(s, kings_set[--n_kings]);
    return found;
}

/* Draw the stock's top card (an Ace or King goes to its pile) and search on. */
static int draw(Search *s, int p, int top, uint64_t tab, uint32_t ace, uint64_t fmask) {
    int card = s->order[p], found;
    if (!line_push(s, -1, s->place_discard)) return FAILED;
    if (s->rank[card] == 0) {
        found = dfs(s, p + 1, top, tab, ace + (1u << (4 * s->suit[card])), fmask | 1ULL << card);
    } else if (s->rank[card] == s->r - 1) {
        pile_push(s, s->suit[card], card);
        found = dfs(s, p + 1, top, tab, ace, fmask | 1ULL << card);
        pile_pop(s, s->suit[card]);
    } else {
        s->stack[top] = card;
        found = dfs(s, p + 1, top + 1, tab, ace, fmask);
    }
    if (found == LOST) s->line_len--;
    return found;
}

static int dfs(Search *s, int p, int top, uint64_t tab, uint32_t ace, uint64_t fmask) {
    if (fmask == s->full) return WON;
    int mark = s->line_len, flags = s->flags, n = s->n, found;
    uint64_t ace_next = ace_next_of(s, ace);
    int safe_pile[64], safe_card[64], n_safe = 0;
    int lifted[MAXN], n_lifted = 0, top_before = top; /* discard cards the safe moves took */
    /* Safe moves, made without branching: a King-pile top its Ace pile takes and that
     * can never host; with ENDGAME and the stock used up, also such a discard top or
     * tableau card (the King-pile tops first, as solver.py does). */
    while (flags & (SAFE_MOVES | ENDGAME)) {
        int moved = 0;
        for (int i = 0; (flags & SAFE_MOVES) && i < 4; i++) {
            int t = pile_top(s, i);
            if (t >= 0 && ((ace_next >> t) & 1) && (s->host_mask[t] & fmask) == s->host_mask[t]) {
                if (!line_push(s, t, s->place_ace + s->suit[t])) return FAILED;
                pile_pop(s, i);
                safe_pile[n_safe] = i;
                safe_card[n_safe++] = t;
                ace += 1u << (4 * s->suit[t]);
                moved = 1;
                break;
            }
        }
        if (!moved && (flags & ENDGAME) && p == n) {
            uint64_t candidates = ace_next & (tab | (top ? 1ULL << s->stack[top - 1] : 0));
            while (candidates) {
                int x = __builtin_ctzll(candidates);
                candidates &= candidates - 1;
                if ((s->host_mask[x] & fmask) != s->host_mask[x]) continue;
                if (!line_push(s, x, s->place_ace + s->suit[x])) return FAILED;
                ace += 1u << (4 * s->suit[x]);
                fmask |= 1ULL << x;
                if ((tab >> x) & 1) {
                    tab ^= 1ULL << x;
                    if (top) {
                        top--;
                        lifted[n_lifted++] = s->stack[top];
                        tab |= 1ULL << s->stack[top];
                    }
                } else {
                    top--;
                    lifted[n_lifted++] = x;
                }
                moved = 1;
                break;
            }
        }
        if (!moved) break;
        ace_next = ace_next_of(s, ace);
    }
    int discard_top = top ? s->stack[top - 1] : -1;
    if (fmask == s->full) return WON;
    Key key = make_key(s, p, tab, ace);
    if (keyset_has(&s->seen, key)) {
        found = LOST;
        goto undo;
    }
    s->nodes++;
    if (s->nodes > s->bound) return STOPPED;
    if ((s->nodes & 0xfffff) == 0 && PyErr_CheckSignals() < 0) {
        s->interrupted = 1;
        return FAILED;
    }
    if ((flags & DEAD_ENDS) && dead_end(s, top, tab, ace, fmask)) goto lost;
    if ((flags & STOCK_ORDER) && p < n && s->nodes > s->stock_after) {
        if (stock_dead(s, p, top, tab, ace, fmask)) goto lost;
    }
    uint64_t playable = ace_next;
    for (int i = 0; i < 4; i++) {
        int t = pile_top(s, i);
        if (t >= 0) playable |= s->takes[t];
    }
    int everything = top > 0 || p == n || !(flags & DRAW_FIRST);
    int sources[MAXN], n_sources = 0, from_tab = 1;
    if (top && ((playable >> discard_top) & 1)) {
        sources[n_sources++] = discard_top;
        from_tab = 0;
    }
    if (everything) {
        uint64_t rest = tab & playable;
        while (rest) {
            sources[n_sources++] = __builtin_ctzll(rest);
            rest &= rest - 1;
        }
    }
    if (p < n && s->draw_early) {
        found = draw(s, p, top, tab, ace, fmask);
        if (top) s->stack[top - 1] = discard_top;
        if (found != LOST) return found;
    }
    for (int j = 0; j < n_sources; j++) {
        int card = sources[j];
        uint64_t bit = 1ULL << card, f2 = fmask | bit;
        if (ace_next & bit) {
            if (!line_push(s, card, s->place_ace + s->suit[card])) return FAILED;
            uint32_t a2 = ace + (1u << (4 * s->suit[card]));
            found = from_tab ? fill_and_search(s, p, top, tab ^ bit, a2, f2)
                             : dfs(s, p, top - 1, tab, a2, f2);
            if (top) s->stack[top - 1] = discard_top;
            if (found != LOST) return found;
            s->line_len--;
        }
        int to_kings = 1;
        if ((flags & SAFE_MOVES) && (ace_next & bit) &&
            (s->host_mask[card] & fmask) == s->host_mask[card])
            to_kings = 0; /* the Ace pile is better than a King pile */
        int tried = -1;
        for (int i = 0; to_kings && i < 4; i++) {
            int t = pile_top(s, i);
            if (t < 0 || !((s->takes[t] >> card) & 1)) continue;
            if ((flags & SYMMETRY) && tried >= 0 && code_above_king(s, tried) == code_above_king(s, i))
                continue; /* the same move, on the other pile of the colour */
            tried = i;
            if (!line_push(s, card, s->place_king + i)) return FAILED;
            pile_push(s, i, card);
            found = from_tab ? fill_and_search(s, p, top, tab ^ bit, ace, f2)
                             : dfs(s, p, top - 1, tab, ace, f2);
            pile_pop(s, i);
            if (top) s->stack[top - 1] = discard_top;
            if (found != LOST) return found;
            s->line_len--;
        }
        from_tab = 1; /* every source after the discard top is a tableau card */
    }
    if (everything) {
        for (int i = 0; i < 4; i++) {
            int t = pile_top(s, i);
            if (t < 0 || !((ace_next >> t) & 1) || ((flags & KINGS_STAY) && s->is_king[t]))
                continue;
            if (!line_push(s, t, s->place_ace + s->suit[t])) return FAILED;
            pile_pop(s, i);
            found = dfs(s, p, top, tab, ace + (1u << (4 * s->suit[t])), fmask);
            pile_push(s, i, t);
            if (top) s->stack[top - 1] = discard_top;
            if (found != LOST) return found;
            s->line_len--;
        }
    }
    if (p < n && !s->draw_early) {
        found = draw(s, p, top, tab, ace, fmask);
        if (top) s->stack[top - 1] = discard_top;
        if (found != LOST) return found;
    }
lost:
    /* Every move failed: the state is lost (recorded only now, as in solver.py). */
    if (!keyset_add(&s->seen, key)) return FAILED;
    found = LOST;
undo:
    for (int j = 0; j < n_lifted; j++) s->stack[top_before - 1 - j] = lifted[j];
    while (n_safe) {
        n_safe--;
        pile_push(s, safe_pile[n_safe], safe_card[n_safe]);
    }
    s->line_len = mark;
    return found;
}

/* The state after the deal: each space filled from the stock in turn. */
static void start(Search *s, int *p, uint64_t *tab, uint32_t *ace, uint64_t *fmask) {
    *p = 0;
    *tab = 0;
    *ace = 0;
    *fmask = 0;
    for (int i = 0; i < 4; i++) {
        s->plen[i] = 0;
        s->pbits[i] = 0;
    }
    for (int slot = 0; slot < s->slots; slot++) {
        while (*p < s->n) {
            int card = s->order[(*p)++];
            *fmask |= 1ULL << card;
            if (s->rank[card] == 0) {
                *ace += 1u << (4 * s->suit[card]);
            } else if (s->rank[card] == s->r - 1) {
                pile_push(s, s->suit[card], card);
            } else {
                *fmask &= ~(1ULL << card);
                *tab |= 1ULL << card;
                break;
            }
        }
    }
}

/* The rounds of the iterative search (solver.py's _ConcreteSearch.solve). */
static int solve(Search *s, int64_t first_round) {
    int64_t step = first_round;
    s->draw_early = 0;
    s->nodes = 0;
    for (;;) {
        int p;
        uint64_t tab, fmask;
        uint32_t ace;
        if (s->flags & ITERATIVE) {
            s->bound = s->nodes + step;
            if (s->bound > s->limit || s->bound < s->nodes) s->bound = s->limit;
        } else {
            s->bound = s->limit;
        }
        s->line_len = 0;
        start(s, &p, &tab, &ace, &fmask);
        int found = dfs(s, p, 0, tab, ace, fmask);
        if (found != STOPPED) return found;
        if (s->nodes >= s->limit) return STOPPED;
        step *= 2;
        s->draw_early = !s->draw_early;
    }
}

/* ---------------------------------------------------------------- Python */

PyDoc_STRVAR(search_doc,
             "search(order, ranks, slots, same_suit, flags, limit, first_round, places,\n"
             "       stock_order_after)\n"
             "--\n\n"
             "The concrete search of a deal: ``order`` is the card numbers in dealing order\n"
             "(bytes), ``ranks`` the ranks per suit, ``slots`` the tableau spaces, ``same_suit``\n"
             "True for variant 1's King piles (else alternating colours), ``flags`` the\n"
             "reductions (bit 0 draw_first, 1 safe_moves, 2 kings_stay, 3 symmetry, 4\n"
             "dead_ends, 5 iterative, 6 endgame, 7 twins, 8 stock_order), ``limit`` the node\n"
             "limit (negative: none),\n"
             "``first_round`` the first round's states, ``places`` the engine's (DISCARD,\n"
             "ACE_BASE, KING_BASE), ``stock_order_after`` the states searched before the\n"
             "stock-order test is used. Returns (verdict, nodes, line): verdict 1 won, 0 lost,\n"
             "-1 the limit was reached; line the (card, place) steps of the win, a draw\n"
             "being (-1, DISCARD).");

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer order;
    int ranks, slots, same_suit, flags, discard, ace_base, king_base;
    long long limit, first_round, stock_after;
    if (!PyArg_ParseTuple(args, "y*iipiLL(iii)L", &order, &ranks, &slots, &same_suit, &flags,
                          &limit, &first_round, &discard, &ace_base, &king_base, &stock_after))
        return NULL;
    int n = (int)order.len;
    if ((flags & ~REDUCTION_BITS) != 0) {
        PyBuffer_Release(&order);
        PyErr_SetString(PyExc_ValueError, "unknown reduction bits (this build is older)");
        return NULL;
    }
    if (n < 4 || n > MAXN || ranks * 4 != n || ranks > 13 || slots < 0 || slots > 8 ||
        first_round < 1) {
        PyBuffer_Release(&order);
        PyErr_SetString(PyExc_ValueError, "search: not a deck this search knows");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (s == NULL || !keyset_init(&s->seen, 1 << 16)) {
        free(s);
        PyBuffer_Release(&order);
        return PyErr_NoMemory();
    }
    const unsigned char *cards = order.buf;
    s->n = n;
    s->r = ranks;
    s->slots = slots;
    s->flags = flags;
    s->limit = limit < 0 ? INT64_MAX : (int64_t)limit;
    s->stock_after = stock_after;
    s->place_discard = discard;
    s->place_ace = ace_base;
    s->place_king = king_base;
    s->full = n == 64 ? ~0ULL : (1ULL << n) - 1;
    uint64_t seen_cards = 0;
    for (int i = 0; i < n; i++) {
        s->order[i] = cards[i];
        seen_cards |= cards[i] < n ? 1ULL << cards[i] : 0;
    }
    PyBuffer_Release(&order);
    if (seen_cards != s->full) {
        free(s->seen.slots);
        free(s);
        PyErr_SetString(PyExc_ValueError, "search: the order is not one whole deck");
        return NULL;
    }
    for (int c = 0; c < n; c++) {
        s->suit[c] = c / ranks;
        s->rank[c] = c % ranks;
        s->is_king[c] = s->rank[c] == ranks - 1;
    }
    /* May card c go on King-pile top t? One rank lower, and same suit (variant 1) or
     * the other colour (variant 2; hearts and diamonds, suits 1 and 3, are red). */
    for (int t = 0; t < n; t++) {
        for (int c = 0; c < n; c++) {
            int fits = s->rank[c] == s->rank[t] - 1 &&
                       (same_suit ? s->suit[c] == s->suit[t]
                                  : (s->suit[c] & 1) != (s->suit[t] & 1));
            if (fits) {
                s->takes[t] |= 1ULL << c;
                if (s->rank[c] != 0) s->host_mask[t] |= 1ULL << c;
            }
        }
    }
    for (int c = 0; c < n; c++) {
        int first = -1, last = -1;
        for (int t = 0; t < n; t++) {
            if ((s->takes[t] >> c) & 1) {
                if (first < 0) first = t;
                last = t;
            }
        }
        s->host1[c] = first < 0 ? 0 : first;
        s->host2[c] = last < 0 ? 0 : last;
    }
    s->n_down = 0;
    for (int rank = ranks - 2; rank >= 1; rank--)
        for (int suit = 0; suit < 4; suit++) s->downwards[s->n_down++] = suit * ranks + rank;

    int found = solve(s, (int64_t)first_round);
    int64_t nodes = s->nodes;
    PyObject *result = NULL;
    if (found == FAILED) {
        if (!s->interrupted) {
            if (s->line_len >= MAX_LINE)
                PyErr_SetString(PyExc_RuntimeError, "search: the line outgrew its array");
            else
                PyErr_NoMemory();
        }
    } else {
        PyObject *line = PyList_New(0);
        if (line != NULL && found == WON) {
            for (int i = 0; i < s->line_len; i++) {
                PyObject *step = Py_BuildValue("(ii)", s->line_card[i], s->line_place[i]);
                if (step == NULL || PyList_Append(line, step) < 0) {
                    Py_XDECREF(step);
                    Py_CLEAR(line);
                    break;
                }
                Py_DECREF(step);
            }
        }
        if (line != NULL) {
            int verdict = found == WON ? 1 : found == LOST ? 0 : -1;
            result = Py_BuildValue("(iLN)", verdict, (long long)nodes, line);
        }
    }
    free(s->seen.slots);
    free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, search_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "machfsol.odds._concrete",
    "The concrete search of machfsol.odds.solver, compiled (same states, faster).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__concrete(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "REDUCTIONS", REDUCTION_BITS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
