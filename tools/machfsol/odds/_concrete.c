/*
 * The concrete (move-by-move) search of machfsol.odds.solver, compiled.
 *
 * This is the same search as the Python class ConcreteSearch, state for state: the
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
 *     sets of two per colour with the symmetry reduction, as ConcreteSearch's key) and the
 *     Ace piles;
 *   - the lost states are kept in an open-addressing hash set of keys.
 *
 * The module has one function, search(); see its docstring.  The Python form lives in
 * machfsol/odds/solver/ (concrete.py, and the dead-end tests in concrete_dead_ends.py
 * and placement.py); why each reduction is sound is told in docs/notes/odds-solver.md: it is the
 * same search.
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

/* Reductions, one bit each (reductions.py's Reductions, in its field order). */
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
    WINDOW = 512,
    PLACEMENT = 1024,
    LAST_DRAW = 2048,
    /* Every bit this build knows, exported as REDUCTIONS: compiled.py compares it with its
       own list, since a module built from an older _concrete.c (a checkout updated
       without rebuilding) would ignore a new bit and search differently. */
    REDUCTION_BITS = DRAW_FIRST | SAFE_MOVES | KINGS_STAY | SYMMETRY | DEAD_ENDS | ITERATIVE |
                     ENDGAME | TWINS | STOCK_ORDER | WINDOW | PLACEMENT | LAST_DRAW,
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
    int downwards[MAXN], n_down; /* the Queens down to the twos, by rank */
    uint64_t down_mask;          /* the same cards */
    int twins[MAXN], n_twins;    /* the black or red card of each pair of twins, likewise */
    int is_king[MAXN];
    uint64_t full;
    /* PLACEMENT: the one or two cards that can lie at each rank on King pile i (the pile
     * of suit i's King), or 0, and the other pile whose cards are of the same kinds (-1:
     * none). */
    uint64_t sit_one[4][16], sit_two[4][16];
    int partner[4];
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
    /* A game in progress to start from instead of the deal (search()'s ``start``). */
    int has_start;
    int start_p, start_top;
    uint64_t start_tab, start_fmask;
    uint32_t start_ace;
    int start_stack[MAXN];
    int start_pile[4][16];
    int start_plen[4];
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

/* The cards above the King: 0 for a King alone or an empty pile (concrete.py strips the
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

/* The stuck-cards test of DeadEnds.is_dead_end (concrete_dead_ends.py), and the
 * stock-order test built on it (is_stock_dead), counted as the Python form counts them,
 * value for value.
 *
 * One state asks for several counts, in several *modes*: mode 0 is the dead-end test's
 * (the stock available at once), mode 1 + m the stock-order test's with the stock's next
 * m cards drawn. They differ only in the values of the stock's cards, and every value the
 * test works out from those is a min or a max of others, the same steps in every mode.
 * So the steps are made once for 16 modes at a time, each value a vector of 16 small
 * integers (Lanes: one lane per mode; GCC's and Clang's vector extension, plain SSE2 on
 * x86-64; without such a compiler no module is built and the Python search runs), and
 * only the final count of waiting cards is made mode by mode, for the modes asked for.
 * A lane holds a level plus one, in an unsigned byte: -1 (held back, or never) is 0,
 * level L is L + 1, NO_BLOCK is LANE_NO_BLOCK + 1 = 255; adding one keeps every min and
 * max, and unsigned bytes have one SSE2 instruction for each.
 *
 * A View holds one state's test: what does not depend on the mode, made once
 * (view_make), and the values of one block of 16 modes (view_fill). The per-card
 * arrays are DeadEnds' scratch arrays of the same names. */
enum { LANES = 16, LANE_NO_BLOCK = 254 };
typedef uint8_t Lanes __attribute__((vector_size(LANES)));

/* Every lane at ``level`` (-1 .. LANE_NO_BLOCK). */
static Lanes lanes_of(int level) {
    Lanes all = {0};
    return all + (uint8_t)(level + 1);
}

/* The level in lane ``lane``. */
static int lane_level(Lanes x, int lane) { return x[lane] - 1; }

/* Written lane by lane: compilers make each one instruction. */
static Lanes lanes_min(Lanes a, Lanes b) {
    Lanes least;
    for (int j = 0; j < LANES; j++) least[j] = a[j] < b[j] ? a[j] : b[j];
    return least;
}

static Lanes lanes_max(Lanes a, Lanes b) {
    Lanes most;
    for (int j = 0; j < LANES; j++) most[j] = a[j] > b[j] ? a[j] : b[j];
    return most;
}

/* ``when`` ? ``yes`` : ``no``, lane by lane (``when`` lanes all ones or all zeros). */
static Lanes lanes_pick(Lanes when, Lanes yes, Lanes no) { return (yes & when) | (no & ~when); }

typedef struct {
    /* The state, and what does not depend on the mode. */
    int p, top;
    uint64_t tab;
    /* The King-pile cards by rank, lowest first (the order the holds need): card
     * pile_card[j] on King pile pile_of[j], those of ranks up to ``rank`` before
     * rank_end[rank]. */
    int pile_card[MAXN], pile_of[MAXN], rank_end[MAXN / 4];
    int live[MAXN], n_live;   /* the Queens down to the twos not on a foundation */
    int twins[MAXN], n_twins; /* twins (the black or red card) with neither on one */
    /* The values of the modes in block ``block`` (16 * block .. 16 * block + 15). */
    int block;
    Lanes level[MAXN];      /* a card's level on the discard pile (NO_BLOCK: not on it) */
    Lanes hold[MAXN];       /* the level down to which the pile is dug before it can leave */
    Lanes ace_block[MAXN];  /* ... before its Ace pile can take it */
    Lanes host_block[MAXN]; /* ... before it can be a King-pile top (FOR_EVER: never) */
    Lanes free[MAXN];       /* ... before it can leave the tableau: max(ace, king_block) */
    Lanes twin_from[MAXN / 2], twin_end[MAXN / 2]; /* a twin waits over [from, end) */
} View;

/* The parts of a state's test that do not depend on the mode. */
static void view_make(const Search *s, View *v, int p, int top, uint64_t tab, uint32_t ace,
                      uint64_t fmask) {
    int n = s->n, r = s->r;
    v->p = p;
    v->top = top;
    v->tab = tab;
    v->block = -1;
    /* Every card a mode reads before setting it starts "not on the pile": with the cards
     * on an Ace pile left at that, the holds need no bounds on the suits. */
    for (int c = 0; c < n; c++) v->level[c] = v->hold[c] = lanes_of(LANE_NO_BLOCK);
    for (int d = 0; d < top; d++) v->level[s->stack[d]] = v->hold[s->stack[d]] = lanes_of(d);
    /* A King on no King pile (in the stock, or on its Ace pile without Kings that stay)
     * can host at once, as far as the pile's levels go. */
    for (int suit = 0; suit < 4; suit++) v->host_block[suit * r + r - 1] = lanes_of(LANE_NO_BLOCK);
    /* Pile i holds one card per rank from its King down, pile[i][r - 1 - rank]. Each
     * place is written, and kept only when the pile reaches that rank. */
    int j = 0;
    for (int rank = 0; rank < r; rank++) {
        for (int i = 0; i < 4; i++) {
            v->pile_card[j] = s->pile[i][r - 1 - rank];
            v->pile_of[j] = i;
            j += r - 1 - rank < s->plen[i];
        }
        v->rank_end[rank] = j;
    }
    uint64_t on_ace = 0;
    for (int suit = 0; suit < 4; suit++) {
        int height = (ace >> (4 * suit)) & 15;
        on_ace |= ((1ULL << height) - 1) << (suit * r);
    }
    /* A card on its Ace pile never takes a card again. */
    for (uint64_t rest = on_ace & s->down_mask; rest; rest &= rest - 1)
        v->host_block[__builtin_ctzll(rest)] = lanes_of(FOR_EVER);
    /* The lists, each card written and kept only when it belongs (no jumps to foresee). */
    v->n_live = 0;
    for (int k = 0; k < s->n_down; k++) {
        int c = s->downwards[k];
        v->live[v->n_live] = c;
        v->n_live += !((fmask >> c) & 1);
    }
    v->n_twins = 0;
    for (int k = 0; k < s->n_twins; k++) {
        int c = s->twins[k];
        v->twins[v->n_twins] = c;
        v->n_twins += !(((fmask >> c) | (fmask >> (c + 2 * r))) & 1);
    }
}

/* The Ace-pile levels and the King-pile holds (DeadEnds' "repeat until no such hold
 * grows deeper" loop). ``ace_block`` of a card: the deepest ``hold`` among the lower
 * cards of its suit (NO_BLOCK when there is none: the cards on the Ace pile hold
 * nothing). A card below others on a King pile cannot leave before they have gone to
 * their own Ace piles: its ``hold`` is the deepest Ace-pile level among them, and so is
 * its ``host_block`` (it is no pile top before).
 *
 * The Python form repeats the two steps until no hold changes. A King-pile card's hold depends
 * only on the Ace-pile levels of the cards above it, which are of lower ranks, and those
 * only on the holds of still lower cards of their suits: so one pass up the ranks, each
 * rank's values made from the lower ranks' final ones, reaches the same fixpoint. */
static void holds_up_the_ranks(const Search *s, View *v) {
    int r = s->r;
    Lanes deepest[4], above[4]; /* a pile top is free */
    for (int i = 0; i < 4; i++) deepest[i] = above[i] = lanes_of(LANE_NO_BLOCK);
    for (int rank = 0, j = 0; rank < r; rank++) {
        for (int suit = 0; suit < 4; suit++) v->ace_block[suit * r + rank] = deepest[suit];
        for (; j < v->rank_end[rank]; j++) {
            int c = v->pile_card[j], i = v->pile_of[j];
            v->host_block[c] = v->hold[c] = above[i];
            above[i] = lanes_min(above[i], v->ace_block[c]);
        }
        for (int suit = 0; suit < 4; suit++)
            deepest[suit] = lanes_min(deepest[suit], v->hold[suit * r + rank]);
    }
}

/* The values of the 16 modes of ``block``, all but the final count. */
static void view_fill(const Search *s, View *v, int block) {
    static const Lanes lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    int r = s->r, top = v->top;
    Lanes mode = lane + (uint8_t)(LANES * block); /* mode numbers, not levels */
    Lanes out_end[MAXN]; /* the stock's cards: the level above the last they are out of
                            the pile */
    v->block = block;
    for (int q = v->p; q < s->n; q++) {
        /* Mode 0: the stock is available at once. Mode 1 + m: the stock's next m cards are
         * drawn, available from the top level on ("top"), the others held back, not
         * before the pile is gone (-1). Only comparisons with pile levels matter
         * (docs/notes/odds-solver.md). */
        int c = s->order[q];
        Lanes drawn = mode > (uint8_t)(q - v->p + 1);
        Lanes here = lanes_pick(drawn, lanes_of(top), lanes_of(-1));
        here = lanes_pick(mode == 0, lanes_of(LANE_NO_BLOCK), here);
        v->level[c] = v->hold[c] = here;
        if (s->is_king[c]) v->host_block[c] = here;
        out_end[c] = lanes_pick(drawn, lanes_of(top), lanes_of(0));
    }
    holds_up_the_ranks(s, v);
    /* A card can go on a King pile once one of its hosts is a pile top; a card of the
     * pile stays in the way until it is dug out. From the Queens down (each card's
     * hosts are of the rank above). */
    for (int k = 0; k < v->n_live; k++) {
        int c = v->live[k];
        Lanes king_block = lanes_max(v->host_block[s->host1[c]], v->host_block[s->host2[c]]);
        v->free[c] = lanes_max(v->ace_block[c], king_block);
        v->host_block[c] = lanes_min(v->level[c], king_block);
    }
    if (!(s->flags & TWINS)) return;
    /* Twin hosts compete for their own two hosts: both can be King-pile tops only once
     * both their hosts can be (DeadEnds._stuck_spans). Higher ranks first, since a
     * pair's hosts are the pair of the rank above. */
    for (int k = 0; k < v->n_twins; k++) {
        int c = v->twins[k], c2 = c + 2 * r;
        Lanes both = lanes_min(v->host_block[s->host1[c]], v->host_block[s->host2[c]]);
        both = lanes_min(both, lanes_min(v->level[c], v->level[c2]));
        Lanes first = v->host_block[c] < v->host_block[c2];
        v->host_block[c] = lanes_pick(first, both, v->host_block[c]);
        v->host_block[c2] = lanes_pick(first, v->host_block[c2], both);
    }
    /* Twins (the two cards of one colour and rank) have the same two hosts, and a host
     * takes one card: while only one host can be a King-pile top, one twin more than the
     * per-card spans count must wait (DeadEnds._stuck_spans): over [twin_from, twin_end),
     * when that is not empty (the Python form's span to ``high``, here end = high + 1). A twin
     * is out of the pile from its level on, a tableau card from just below the top. */
    uint64_t stock = 0;
    for (int q = v->p; q < s->n; q++) stock |= 1ULL << s->order[q];
    for (int k = 0; k < v->n_twins; k++) {
        int c = v->twins[k], c2 = c + 2 * r, out[2];
        for (int t = 0; t < 2; t++) {
            int x = t ? c2 : c;
            out[t] = lane_level(v->level[x], 0) < LANE_NO_BLOCK ? lane_level(v->level[x], 0)
                     : ((v->tab >> x) & 1)                          ? top - 1
                                                                    : -1;
        }
        Lanes b1 = v->host_block[s->host1[c]], b2 = v->host_block[s->host2[c]];
        Lanes from = lanes_max(lanes_min(b1, b2), lanes_max(v->ace_block[c], v->ace_block[c2]));
        Lanes end = lanes_max(b1, b2);
        end = lanes_min(end, ((stock >> c) & 1) ? out_end[c] : lanes_of(out[0] + 1));
        end = lanes_min(end, ((stock >> c2) & 1) ? out_end[c2] : lanes_of(out[1] + 1));
        v->twin_from[k] = lanes_max(from, lanes_of(0));
        v->twin_end[k] = end;
    }
}

/* The lowest level at which a card free only below level ``free`` is counted waiting:
 * -1 (a card that only the pile's end lets out, in the stock-order test) is every
 * level down to 0 (stuck_cards.py's from_level; the difference array has no level -1). */
static int from_level(int free) { return free > 0 ? free : 0; }

/* The cards waiting in the tableau at each level of the pile below the top, in one mode
 * (DeadEnds._stuck_spans and stuck_counts): mode 0, the stock available at once and
 * never waiting (the dead-end test); mode 1 + m, the stock's next m cards drawn (and
 * waiting in the tableau when stuck, like tableau cards), the others held back. The
 * counts go to counts[0..top); with ``stop_over`` >= 0 the count stops at the first level
 * where more than that many cards wait, and the answer is whether it did.
 *
 * A card waiting from level ``from`` up to level ``to`` adds one to the count at each
 * level of [from, to): to diff[from], less one at diff[to] (the count at a level is the
 * sum of diff up to it). Adding ``waits`` (0 or 1) at a place that is in the array
 * either way, rather than branching, keeps the loops free of jumps the processor cannot
 * foresee. */
static int stuck_counts(const Search *s, View *v, int mode, int stop_over, int *counts) {
    int top = v->top, lane = mode % LANES, diff[MAXN + 2];
    if (v->block != mode / LANES) view_fill(s, v, mode / LANES);
    memset(diff, 0, sizeof(int) * (size_t)(top + 1));
    if (s->flags & TWINS) {
        for (int k = 0; k < v->n_twins; k++) {
            int from = lane_level(v->twin_from[k], lane), end = lane_level(v->twin_end[k], lane);
            int waits = from < end;
            diff[waits ? from : 0] += waits;
            diff[waits ? end : 0] -= waits;
        }
    }
    for (int d = 0; d < top; d++) {
        /* Also at its own level: when it is the top, it must go into the tableau while
         * the others still wait there. */
        int free = lane_level(v->free[s->stack[d]], lane), waits = free < d;
        diff[waits ? from_level(free) : d] += waits;
        diff[d + 1] -= waits;
    }
    /* Tableau cards and drawn stock cards wait up to the top (diff[top], which no level
     * reads). A drawn stock card must leave the pile before the pile's level below it,
     * like a tableau card; a drawn Ace or King goes to its pile at once. */
    for (uint64_t rest = v->tab; rest; rest &= rest - 1) {
        int free = lane_level(v->free[__builtin_ctzll(rest)], lane), waits = free < top;
        diff[waits ? from_level(free) : top] += waits;
    }
    for (int q = v->p; q < v->p + mode - 1; q++) {
        int c = s->order[q];
        int free = lane_level(v->free[c], lane);
        int waits = free < top && s->rank[c] != 0 && !s->is_king[c];
        diff[waits ? from_level(free) : top] += waits;
    }
    int stuck = 0;
    for (int lv = 0; lv < top; lv++) {
        stuck += diff[lv];
        counts[lv] = stuck;
        if (stop_over >= 0 && stuck > stop_over) return 1;
    }
    return 0;
}

/* The dead-end test: more cards must wait in the tableau at some level than it has
 * spaces, with the stock available at once. */
static int dead_end(const Search *s, View *v) {
    int counts[MAXN];
    return stuck_counts(s, v, 0, s->slots, counts);
}

/* The stock-order test (DeadEnds.is_stock_dead): going down the pile's
 * levels from the top, the number of the stock's cards drawn can only grow; the state is
 * lost when every such schedule meets a level where too many cards wait. One walk down
 * the levels with the fewest cards drawn that keep each level within the spaces; each
 * number drawn is counted only when the walk needs it (the Python form counts them all: the
 * same answer). */
static int stock_dead(const Search *s, View *v) {
    int counts[MAXN]; /* with ``drawn`` cards drawn */
    int most = s->n - v->p;
    int drawn = 0;
    stuck_counts(s, v, 1 + drawn, -1, counts);
    for (int lv = v->top - 1; lv >= 0; lv--) {
        while (counts[lv] > s->slots) {
            if (++drawn > most) return 1;
            stuck_counts(s, v, 1 + drawn, -1, counts);
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- placement */

/* The placement test (placement.py's Placement.is_dead). The pile's cards
 * leave it from the top, so for each level L the moment comes when the pile holds just
 * its cards below L; every card "out" by then (the tableau's, the pile's from L up and
 * the stock's cards drawn by then) is on a foundation or in the tableau, which has
 * ``slots`` spaces. The most of them the foundations can hold then: each Ace pile a run
 * up its suit (through out cards, or King-pile cards that left their piles from the top
 * down, all to their Ace piles), each King pile what is left of it plus a chain down
 * from its new top, of out cards not on Ace piles. Fewer than the out cards less the
 * spaces: that moment cannot be. Going down the levels, the number of the stock's
 * cards drawn can only grow, as in the stock-order test; no such schedule: lost. The
 * answer does not depend on the order in which heights are tried, only the time does
 * (the Python form tries them all, more simply). */

/* Ranks k, k - 1, ... down to the twos with at least ``need`` cards to take. */
static int chain_run(const int *count, int k, int need) {
    int length = 0;
    for (; k >= 1 && count[k] >= need; k--) length++;
    return length;
}

/* The most cards chains on two King piles of tops of ranks ``a`` and ``b`` (-1: no such
 * pile) can take, ``count[k]`` cards of rank k being there for them. The higher chain
 * goes alone down to the other's top; below it both go on while a rank has two cards,
 * then one while it has one: longest each time, so the most. */
static int chains_best(const int *count, int a, int b) {
    if (a < b) {
        int t = a;
        a = b;
        b = t;
    }
    if (a < 0) return 0;
    if (b < 0) return chain_run(count, a - 1, 1);
    int alone = 0, k = a - 1;
    for (; k >= b && k >= 1; k--) {
        if (count[k] < 1) return alone + chain_run(count, b - 1, 1);
        alone++;
    }
    int both = chain_run(count, k, 2);
    return alone + 2 * both + chain_run(count, k - both, 1);
}

/* The King piles as the placement test sees them: a King still in the stock but drawn
 * by the moment looked at heads a pile of its own. */
typedef struct {
    int len[4];
    int card[4][16];
    uint64_t below[4][17]; /* the cards of pile i below place k */
} Piles;

/* One moment of the placement test: the out cards, the Ace-pile heights each suit can
 * have (low[s] .. high[s]) and, for each, how many out cards its run holds. */
typedef struct {
    uint64_t out;
    int low[4], high[4];
    int held[4][16]; /* held[s][h]: out cards of suit s below height h, from low[s] */
} Moment;

/* The cards the Ace piles take in rising from heights ``low`` to ``high``. */
static uint64_t ace_runs(const Search *s, const int *low, const int *high) {
    uint64_t runs = 0;
    for (int suit = 0; suit < 4; suit++)
        runs |= ((1ULL << high[suit]) - (1ULL << low[suit])) << (suit * s->r);
    return runs;
}

/* How many of King pile i's cards stay when those in ``on_ace`` go to their Ace piles
 * from the top down (the King always stays). */
static int kept_on_pile(const Piles *piles, int i, uint64_t on_ace) {
    int k = piles->len[i];
    while (k > 1 && ((on_ace >> piles->card[i][k - 1]) & 1)) k--;
    return k;
}

/* The most out cards chains on the King piles can take, with the Ace piles at ``h``
 * (-1: those heights cannot be, a King-pile card below one that goes to its Ace pile
 * would have to go too). */
static int chains_at(const Search *s, const Piles *piles, const Moment *at, const int *h) {
    int tops[4];
    uint64_t on_ace = ace_runs(s, at->low, h);
    for (int i = 0; i < 4; i++) {
        int k = kept_on_pile(piles, i, on_ace);
        if (piles->below[i][k] & on_ace) return -1;
        tops[i] = k ? s->rank[piles->card[i][k - 1]] : -1;
    }
    uint64_t avail = at->out & ~on_ace;
    int placed = 0;
    for (int i = 0; i < 4; i++) {
        int other = s->partner[i];
        if (other >= 0 && other < i) continue;
        int highest = other >= 0 && tops[other] > tops[i] ? tops[other] : tops[i];
        int count[16];
        for (int k = 1; k < highest; k++)
            count[k] = ((avail & s->sit_one[i][k]) != 0) + ((avail & s->sit_two[i][k]) != 0);
        placed += chains_best(count, tops[i], other >= 0 ? tops[other] : -1);
    }
    return placed;
}

/* At most how many out cards chains can take, whatever the Ace-pile heights: every top
 * each King pile can have (down to where a card is not one its Ace pile could take), all
 * the out cards there for the chains. */
static int chains_most(const Search *s, const Piles *piles, const Moment *at) {
    int r = s->r, most = 0, first[4];
    for (int i = 0; i < 4; i++) {
        int k = piles->len[i];
        while (k > 1) {
            int c = piles->card[i][k - 1];
            if (s->rank[c] >= at->high[s->suit[c]]) break;
            k--;
        }
        first[i] = k;
    }
    for (int i = 0; i < 4; i++) {
        int other = s->partner[i];
        if (other >= 0 && other < i) continue;
        int count[16];
        for (int k = 1; k < r - 1; k++)
            count[k] = ((at->out & s->sit_one[i][k]) != 0) + ((at->out & s->sit_two[i][k]) != 0);
        int best = 0;
        for (int ka = first[i]; ka <= piles->len[i]; ka++) {
            int ta = ka ? s->rank[piles->card[i][ka - 1]] : -1;
            if (other < 0) {
                int here = chains_best(count, ta, -1);
                best = here > best ? here : best;
                continue;
            }
            for (int kb = first[other]; kb <= piles->len[other]; kb++) {
                int tb = kb ? s->rank[piles->card[other][kb - 1]] : -1;
                int here = chains_best(count, ta, tb);
                best = here > best ? here : best;
            }
        }
        most += best;
    }
    return most;
}

/* How many of the out cards can the foundations hold, if ``need`` or more (else any
 * smaller number)? First the heights that did it at the moment before (``tried``, if
 * ``tried[0]`` >= 0), then the highest, then every choice of heights, highest first, a
 * suit's lower heights skipped once even the most the chains could add would not make
 * up for them. */
static int placement_reaches(const Search *s, const Piles *piles, const Moment *at, int need,
                             int *tried) {
    int h[4], rest[5];
    for (int attempt = 0; attempt < 2; attempt++) {
        int sum = 0;
        for (int suit = 0; suit < 4; suit++) {
            int want = attempt == 0 && tried[0] >= 0 ? tried[suit] : at->high[suit];
            h[suit] = want < at->low[suit]    ? at->low[suit]
                      : want > at->high[suit] ? at->high[suit]
                                              : want;
            sum += at->held[suit][h[suit]];
        }
        int chained = chains_at(s, piles, at, h);
        if (chained >= 0 && sum + chained >= need) {
            for (int suit = 0; suit < 4; suit++) tried[suit] = h[suit];
            return sum + chained;
        }
        if (tried[0] < 0) break;
    }
    rest[4] = 0;
    for (int suit = 3; suit >= 0; suit--)
        rest[suit] = rest[suit + 1] + at->held[suit][at->high[suit]];
    int chains = chains_most(s, piles, at);
    if (rest[0] + chains < need) return rest[0] + chains;
    int sum[5];
    sum[0] = chains;
    for (h[0] = at->high[0]; h[0] >= at->low[0]; h[0]--) {
        sum[1] = sum[0] + at->held[0][h[0]];
        if (sum[1] + rest[1] < need) break;
        for (h[1] = at->high[1]; h[1] >= at->low[1]; h[1]--) {
            sum[2] = sum[1] + at->held[1][h[1]];
            if (sum[2] + rest[2] < need) break;
            for (h[2] = at->high[2]; h[2] >= at->low[2]; h[2]--) {
                sum[3] = sum[2] + at->held[2][h[2]];
                if (sum[3] + rest[3] < need) break;
                for (h[3] = at->high[3]; h[3] >= at->low[3]; h[3]--) {
                    sum[4] = sum[3] + at->held[3][h[3]];
                    if (sum[4] < need) break;
                    int chained = chains_at(s, piles, at, h);
                    int placed = sum[4] - chains + chained;
                    if (chained >= 0 && placed >= need) {
                        for (int suit = 0; suit < 4; suit++) tried[suit] = h[suit];
                        return placed;
                    }
                }
            }
        }
    }
    return 0; /* fewer than ``need`` */
}

/* Is the moment within the spaces? ``gone``: the cards still on the pile below the
 * level, or in the stock. When it is, ``slack`` is how many cards more the heights
 * found could place: the next levels down need one more each, and those heights place
 * at least as many there (a card that comes out only adds to what can be placed). */
static int placement_fits(const Search *s, const Piles *piles, Moment *at, uint64_t gone,
                          int *tried, int *slack) {
    int r = s->r;
    int need = __builtin_popcountll(at->out) - s->slots;
    if (need <= 0) {
        *slack = -need;
        return 1;
    }
    for (int suit = 0; suit < 4; suit++) {
        int h = at->low[suit];
        at->held[suit][h] = 0;
        while (h < r - 1 && !((gone >> (suit * r + h)) & 1)) {
            at->held[suit][h + 1] = at->held[suit][h] + (int)((at->out >> (suit * r + h)) & 1);
            h++;
        }
        at->high[suit] = h;
    }
    /* No heights above the highest that can be: where a suit's run would take a King-pile
     * card that a card above it (not on its own Ace pile by then) holds down, it stops
     * below. Runs that can be are closed under the highest of each (a union of top
     * segments of a pile is one), so lowering them until they can be finds the highest. */
    for (int changed = 1; changed;) {
        changed = 0;
        uint64_t on_ace = ace_runs(s, at->low, at->high);
        for (int i = 0; i < 4; i++) {
            int k = kept_on_pile(piles, i, on_ace);
            for (uint64_t held = piles->below[i][k] & on_ace; held; held &= held - 1) {
                int c = __builtin_ctzll(held);
                if (at->high[s->suit[c]] > s->rank[c]) at->high[s->suit[c]] = s->rank[c];
                changed = 1;
            }
        }
    }
    int placed = placement_reaches(s, piles, at, need, tried);
    *slack = placed - need;
    return placed >= need;
}

/* Going down the pile's levels, the stock's cards drawn can only grow: lost when no
 * such schedule keeps every level within the spaces (the fewest drawn that fit, level
 * by level, as the stock-order test). */
static int placement_dead(const Search *s, int p, int top, uint64_t tab, uint32_t ace) {
    int drawn = 0, most = s->n - p, tried[4] = {-1, -1, -1, -1}, slack = 0;
    Piles piles;
    Moment at;
    uint64_t gone = 0;
    for (int i = 0; i < 4; i++) {
        piles.len[i] = s->plen[i];
        piles.below[i][0] = 0;
        for (int k = 0; k < s->plen[i]; k++) {
            piles.card[i][k] = s->pile[i][k];
            piles.below[i][k + 1] = piles.below[i][k] | 1ULL << s->pile[i][k];
        }
    }
    for (int suit = 0; suit < 4; suit++) at.low[suit] = (ace >> (4 * suit)) & 15;
    for (int d = 0; d < top; d++) gone |= 1ULL << s->stack[d];
    for (int q = p; q < s->n; q++) gone |= 1ULL << s->order[q];
    at.out = tab;
    for (int level = top - 1; level >= 0; level--) {
        gone &= ~(1ULL << s->stack[level]);
        at.out |= 1ULL << s->stack[level];
        if (slack > 0) { /* the heights of the level above still do it */
            slack--;
            continue;
        }
        while (!placement_fits(s, &piles, &at, gone, tried, &slack)) {
            if (drawn == most) return 1;
            int c = s->order[p + drawn++];
            gone &= ~(1ULL << c);
            if (s->rank[c] == 0) {
                at.low[s->suit[c]] = 1;
            } else if (s->is_king[c]) {
                piles.len[s->suit[c]] = 1;
                piles.card[s->suit[c]][0] = c;
                piles.below[s->suit[c]][1] = 1ULL << c;
            } else {
                at.out |= 1ULL << c;
            }
        }
    }
    return 0;
}

/* Is the state proved lost by the dead-end test or (after ``stock_after`` states, with
 * the stock not used up) the stock-order test (both need two cards on the pile), or
 * (after ``stock_after`` states) the placement test? */
static int proved_lost(const Search *s, int p, int top, uint64_t tab, uint32_t ace,
                       uint64_t fmask) {
    int dead_ends = s->flags & DEAD_ENDS;
    int stock_order = (s->flags & STOCK_ORDER) && p < s->n && s->nodes > s->stock_after;
    if (top >= 2 && (dead_ends || stock_order)) {
        View v;
        view_make(s, &v, p, top, tab, ace, fmask);
        if ((dead_ends && dead_end(s, &v)) || (stock_order && stock_dead(s, &v))) return 1;
    }
    return (s->flags & PLACEMENT) && top >= 1 && s->nodes > s->stock_after &&
           placement_dead(s, p, top, tab, ace);
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
    /* Safe moves, made without branching: with LAST_DRAW, the stock's last card when its
     * Ace pile takes it and it can never host (drawn and played); a King-pile top its Ace
     * pile takes and that can never host; with ENDGAME and the stock used up, also such
     * a discard top or tableau card (in that order, as concrete.py makes them). */
    while ((flags & (SAFE_MOVES | ENDGAME)) || ((flags & LAST_DRAW) && p == n - 1)) {
        int moved = 0;
        if ((flags & LAST_DRAW) && p == n - 1) {
            /* The stock's last card, when its Ace pile takes it and it can never host (and
             * it is no King), is drawn and played before anything else (concrete.py). */
            int x = s->order[p];
            if (((ace_next >> x) & 1) && (s->host_mask[x] & fmask) == s->host_mask[x] &&
                !s->is_king[x]) {
                if (!line_push(s, -1, s->place_discard) ||
                    (s->rank[x] && !line_push(s, x, s->place_ace + s->suit[x]))) {
                    found = FAILED;
                    goto unwind;
                }
                ace += 1u << (4 * s->suit[x]);
                fmask |= 1ULL << x;
                p = n;
                moved = 1;
            }
        }
        for (int i = 0; !moved && (flags & SAFE_MOVES) && i < 4; i++) {
            int t = pile_top(s, i);
            if (t >= 0 && ((ace_next >> t) & 1) && (s->host_mask[t] & fmask) == s->host_mask[t]) {
                if (!line_push(s, t, s->place_ace + s->suit[t])) {
                    found = FAILED;
                    goto unwind;
                }
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
                if (!line_push(s, x, s->place_ace + s->suit[x])) {
                    found = FAILED;
                    goto unwind;
                }
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
    if (fmask == s->full) {
        found = WON;
        goto unwind;
    }
    /* WINDOW: with at most one card left to draw, the discard top is keyed with the
     * tableau, as one set (concrete.py's window reduction: which window card is the top
     * does not matter). */
    uint64_t window = (flags & WINDOW) && p >= n - 1 && top ? tab | 1ULL << s->stack[top - 1] : tab;
    Key key = make_key(s, p, window, ace);
    if (keyset_has(&s->seen, key)) {
        found = LOST;
        goto undo;
    }
    s->nodes++;
    if (s->nodes > s->bound) {
        found = STOPPED;
        goto unwind;
    }
    if ((s->nodes & 0xfffff) == 0 && PyErr_CheckSignals() < 0) {
        s->interrupted = 1;
        found = FAILED;
        goto unwind;
    }
    if (proved_lost(s, p, top, tab, ace, fmask)) goto lost;
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
        if (found != LOST) goto unwind;
    }
    for (int j = 0; j < n_sources; j++) {
        int card = sources[j];
        uint64_t bit = 1ULL << card, f2 = fmask | bit;
        if (ace_next & bit) {
            if (!line_push(s, card, s->place_ace + s->suit[card])) {
                found = FAILED;
                goto unwind;
            }
            uint32_t a2 = ace + (1u << (4 * s->suit[card]));
            found = from_tab ? fill_and_search(s, p, top, tab ^ bit, a2, f2)
                             : dfs(s, p, top - 1, tab, a2, f2);
            if (top) s->stack[top - 1] = discard_top;
            if (found != LOST) goto unwind;
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
            if (!line_push(s, card, s->place_king + i)) {
                found = FAILED;
                goto unwind;
            }
            pile_push(s, i, card);
            found = from_tab ? fill_and_search(s, p, top, tab ^ bit, ace, f2)
                             : dfs(s, p, top - 1, tab, ace, f2);
            pile_pop(s, i);
            if (top) s->stack[top - 1] = discard_top;
            if (found != LOST) goto unwind;
            s->line_len--;
        }
        from_tab = 1; /* every source after the discard top is a tableau card */
    }
    if (everything) {
        for (int i = 0; i < 4; i++) {
            int t = pile_top(s, i);
            if (t < 0 || !((ace_next >> t) & 1) || ((flags & KINGS_STAY) && s->is_king[t]))
                continue;
            if (!line_push(s, t, s->place_ace + s->suit[t])) {
                    found = FAILED;
                    goto unwind;
                }
            pile_pop(s, i);
            found = dfs(s, p, top, tab, ace + (1u << (4 * s->suit[t])), fmask);
            pile_push(s, i, t);
            if (top) s->stack[top - 1] = discard_top;
            if (found != LOST) goto unwind;
            s->line_len--;
        }
    }
    if (p < n && !s->draw_early) {
        found = draw(s, p, top, tab, ace, fmask);
        if (top) s->stack[top - 1] = discard_top;
        if (found != LOST) goto unwind;
    }
lost:
    /* Every move failed: the state is lost (recorded only now, as in concrete.py). */
    found = keyset_add(&s->seen, key) ? LOST : FAILED;
undo:
    if (found == LOST) s->line_len = mark;
unwind:
    /* Whatever the answer, the pile and the King piles are left as this state found
     * them, so that every caller's own undoing stays right (a win keeps its line). */
    for (int j = 0; j < n_lifted; j++) s->stack[top_before - 1 - j] = lifted[j];
    while (n_safe) {
        n_safe--;
        pile_push(s, safe_pile[n_safe], safe_card[n_safe]);
    }
    return found;
}

/* The state after the deal: each space filled from the stock in turn; or the game in
 * progress search() was given. */
static void start(Search *s, int *p, int *top, uint64_t *tab, uint32_t *ace, uint64_t *fmask) {
    *p = 0;
    *top = 0;
    *tab = 0;
    *ace = 0;
    *fmask = 0;
    for (int i = 0; i < 4; i++) {
        s->plen[i] = 0;
        s->pbits[i] = 0;
    }
    if (s->has_start) {
        *p = s->start_p;
        *top = s->start_top;
        *tab = s->start_tab;
        *ace = s->start_ace;
        *fmask = s->start_fmask;
        for (int k = 0; k < s->start_top; k++) s->stack[k] = s->start_stack[k];
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < s->start_plen[i]; k++) pile_push(s, i, s->start_pile[i][k]);
        return;
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

/* The rounds of the iterative search (ConcreteSearch.solve). */
static int solve(Search *s, int64_t first_round) {
    int64_t step = first_round;
    s->draw_early = 0;
    s->nodes = 0;
    for (;;) {
        int p, top;
        uint64_t tab, fmask;
        uint32_t ace;
        if (s->flags & ITERATIVE) {
            s->bound = s->nodes + step;
            if (s->bound > s->limit || s->bound < s->nodes) s->bound = s->limit;
        } else {
            s->bound = s->limit;
        }
        s->line_len = 0;
        start(s, &p, &top, &tab, &ace, &fmask);
        int found = dfs(s, p, top, tab, ace, fmask);
        if (found != STOPPED) return found;
        if (s->nodes >= s->limit) return STOPPED;
        step *= 2;
        s->draw_early = !s->draw_early;
    }
}

/* ---------------------------------------------------------------- Python */

PyDoc_STRVAR(search_doc,
             "search(order, ranks, slots, same_suit, flags, limit, first_round, places,\n"
             "       stock_order_after, start=None)\n"
             "--\n\n"
             "The concrete search of a deal: ``order`` is the card numbers in dealing order\n"
             "(bytes), ``ranks`` the ranks per suit, ``slots`` the tableau spaces, ``same_suit``\n"
             "True for variant 1's King piles (else alternating colours), ``flags`` the\n"
             "reductions (bit 0 draw_first, 1 safe_moves, 2 kings_stay, 3 symmetry, 4\n"
             "dead_ends, 5 iterative, 6 endgame, 7 twins, 8 stock_order, 9 window, 10\n"
             "placement, 11 last_draw), ``limit``\n"
             "the node limit (negative: none),\n"
             "``first_round`` the first round's states, ``places`` the engine's (DISCARD,\n"
             "ACE_BASE, KING_BASE), ``stock_order_after`` the states searched before the\n"
             "stock-order and placement tests are used, ``start`` None (the deal) or a game\n"
             "in progress to search from: (p, discard, tableau, ace, foundations, piles), the\n"
             "stock position, the discard pile's cards bottom first (bytes), the tableau's and\n"
             "the foundations' cards as bit masks, the Ace-pile heights (4 bits per suit) and\n"
             "the four King piles' cards from the King up (bytes each). Returns (verdict,\n"
             "nodes, line):\n"
             "verdict 1 won, 0 lost, -1 the limit was reached; line the (card, place) steps\n"
             "of the win, a draw being (-1, DISCARD).");

/* Read search()'s ``start`` (see its docstring) into s->start_*; 0 with a ValueError set
 * if it is not a table of this deck. The search takes it as given: the caller makes it
 * from a game the engine played, so it is a table the rules can reach. */
static int read_start(Search *s, PyObject *begin) {
    int p;
    unsigned long long tab, fmask;
    unsigned int ace;
    const char *stack, *pile[4];
    Py_ssize_t stack_len, pile_len[4];
    if (!PyArg_ParseTuple(begin, "iy#KIK(y#y#y#y#)", &p, &stack, &stack_len, &tab, &ace, &fmask,
                          &pile[0], &pile_len[0], &pile[1], &pile_len[1], &pile[2], &pile_len[2],
                          &pile[3], &pile_len[3]))
        return 0;
    int ok = p >= 0 && p <= s->n && stack_len <= s->n && (tab & ~s->full) == 0 &&
             (fmask & ~s->full) == 0;
    for (Py_ssize_t k = 0; ok && k < stack_len; k++) ok = (unsigned char)stack[k] < s->n;
    for (int i = 0; ok && i < 4; i++) {
        ok = pile_len[i] <= s->r && ((ace >> (4 * i)) & 15) <= (unsigned)s->r;
        for (Py_ssize_t k = 0; ok && k < pile_len[i]; k++) ok = (unsigned char)pile[i][k] < s->n;
    }
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "search: the start is not a table of this deck");
        return 0;
    }
    s->has_start = 1;
    s->start_p = p;
    s->start_top = (int)stack_len;
    s->start_tab = tab;
    s->start_fmask = fmask;
    s->start_ace = ace;
    for (Py_ssize_t k = 0; k < stack_len; k++) s->start_stack[k] = (unsigned char)stack[k];
    for (int i = 0; i < 4; i++) {
        s->start_plen[i] = (int)pile_len[i];
        for (Py_ssize_t k = 0; k < pile_len[i]; k++) s->start_pile[i][k] = (unsigned char)pile[i][k];
    }
    return 1;
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer order;
    int ranks, slots, same_suit, flags, discard, ace_base, king_base;
    long long limit, first_round, stock_after;
    PyObject *begin = Py_None;
    if (!PyArg_ParseTuple(args, "y*iipiLL(iii)L|O", &order, &ranks, &slots, &same_suit, &flags,
                          &limit, &first_round, &discard, &ace_base, &king_base, &stock_after,
                          &begin))
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
    if (begin != Py_None && !read_start(s, begin)) {
        free(s->seen.slots);
        free(s);
        return NULL;
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
    /* PLACEMENT: what each King pile can hold, rank by rank down from its King, and the
     * pile that can hold the same cards (the other King of the colour, in variant 2). */
    uint64_t sits[4][16];
    for (int i = 0; i < 4; i++) {
        sits[i][ranks - 1] = 1ULL << (i * ranks + ranks - 1);
        for (int k = ranks - 2; k >= 1; k--) {
            sits[i][k] = 0;
            for (uint64_t t = sits[i][k + 1]; t; t &= t - 1)
                sits[i][k] |= s->host_mask[__builtin_ctzll(t)];
            s->sit_one[i][k] = sits[i][k] & (~sits[i][k] + 1);
            s->sit_two[i][k] = sits[i][k] & ~s->sit_one[i][k];
        }
    }
    for (int i = 0; i < 4; i++) {
        s->partner[i] = -1;
        for (int j = 0; j < 4; j++)
            if (j != i && ranks > 2 && sits[j][ranks - 2] == sits[i][ranks - 2])
                s->partner[i] = j;
    }
    s->n_down = 0;
    for (int rank = ranks - 2; rank >= 1; rank--)
        for (int suit = 0; suit < 4; suit++) s->downwards[s->n_down++] = suit * ranks + rank;
    s->down_mask = 0;
    for (int j = 0; j < s->n_down; j++) s->down_mask |= 1ULL << s->downwards[j];
    /* Twins: the two cards of one colour and rank (S and C, H and D), suits s and s + 2. */
    s->n_twins = 0;
    for (int j = 0; j < s->n_down; j++)
        if (s->suit[s->downwards[j]] < 2) s->twins[s->n_twins++] = s->downwards[j];

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
    if (m != NULL && (PyModule_AddIntConstant(m, "REDUCTIONS", REDUCTION_BITS) < 0 ||
                      PyModule_AddIntConstant(m, "STARTS", 1) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
