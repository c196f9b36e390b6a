/* fbsim: run a firmware ELF under simavr with its UART on a pseudo-terminal and the device's hardware
 * simulated around it (sensors the test toggles, motors whose steps are counted, a deck of cards).
 *
 *   fbsim --kind shoe|shuffler|reels --elf build/sim-shoe/firmware.elf [--decks N] [--cut N] [--seed N]
 *
 * stdout, first line: {"port": "/dev/pts/N", "pid": ..., "kind": ..., "diag": ADDR}
 * stdin: one control command per line, each answered by one JSON line on stdout:
 *
 *   stats                     the world's counters and the firmware's diagnostic block (hex)
 *   door open|closed          the door switch            jam | clear      the jam sensor
 *   empty                     take every card out         misread N        the reader fails N cards
 *   load DECKS [CUT]          an operator loads a shoe    home_fail N      reel 3's flag is missed N times
 *   reset watchdog|brown_out|power_on    reset the chip (RAM kept except at power-on); answers the new boot_id
 *   quit
 *
 * Simulated time is paced to the wall clock (the AVR sleeps between 1 ms ticks, so simavr is far faster
 * than real time); the firmware's 2 s heartbeat and 30 ms resend timers therefore mean what they say.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <avr_ioport.h>
#include <avr_spi.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>

#define F_CPU 16000000ULL
#define SRAM_START 0x100
#define SRAM_END 0x900
#define MCUSR_ADDR 0x54

static avr_t *avr;
static int ctl_out = 1;
static int pty_master = -1;
static char kind[16] = "shoe";
static uint32_t diag_addr;

/* ------------------------------------------------------------------------------------------ util */
static uint64_t rng_state = 88172645463325252ULL;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

static void reply(const char *fmt, ...) {
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = sizeof line - 2;
    line[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t w = write(ctl_out, line + off, (size_t)(n - off));
        if (w <= 0) return;
        off += (int)w;
    }
}

/* ------------------------------------------------------------------------------------------ pins */
static avr_irq_t *pin_irq(char port, int bit) {
    return avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), bit);
}

/* A sensor drives the pin: recorded as the port's "external" level so the firmware's pull-up writes to
 * PORTx do not override it, then raised. */
static uint8_t ext_mask[3], ext_value[3];
static void drive(char port, int bit, int level) {
    int i = port - 'B';
    ext_mask[i] |= (uint8_t)(1 << bit);
    if (level) ext_value[i] |= (uint8_t)(1 << bit);
    else ext_value[i] &= (uint8_t)~(1 << bit);
    avr_ioport_external_t ext = {.name = (unsigned long)port, .mask = ext_mask[i], .value = ext_value[i]};
    avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(port), &ext);
    avr_raise_irq(pin_irq(port, bit), level ? 1 : 0);
}

static int door_open, jam_on;

static void drive_common(void) {
    drive('D', 2, !door_open);  /* LOW = open (simavr polls a LOW INT0 pin every cycle: keep it rare) */
    drive('D', 3, !jam_on);     /* LOW = jammed */
}

/* ------------------------------------------------------------------------------------------ shoe */
#define CUT_CARD 0xFE
static uint8_t deck[12 * 52 + 1];
static int deck_len, deck_top, misreads;
static int cards_fed, cut_cards_ejected, feed_starts;
static int spi_cmd = -1, spi_index;
static uint8_t spi_args[4];

static void shuffle_into_deck(int decks, int cut) {
    deck_len = 0;
    for (int d = 0; d < decks; d++)
        for (int c = 1; c <= 52; c++) deck[deck_len++] = (uint8_t)c;
    for (int i = deck_len - 1; i > 0; i--) {
        int j = (int)(rnd() % (uint32_t)(i + 1));
        uint8_t t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
    if (cut > 0 && cut < deck_len) {  /* the cut card goes `cut` cards from the bottom */
        int at = deck_len - cut;
        memmove(deck + at + 1, deck + at, (size_t)(deck_len - at));
        deck[at] = CUT_CARD;
        deck_len++;
    }
    deck_top = 0;
}

static int cards_left(void) {
    int n = 0;
    for (int i = deck_top; i < deck_len; i++) n += deck[i] != CUT_CARD;
    return n;
}

static void drive_shoe(void) {
    int present = deck_top < deck_len;
    drive('D', 4, !present);
    drive('D', 7, !(present && deck[deck_top] == CUT_CARD));
}

static avr_cycle_count_t card_clears_beam(avr_t *a, avr_cycle_count_t when, void *param) {
    (void)a; (void)when; (void)param;
    drive('D', 5, 1);
    return 0;
}

static avr_cycle_count_t card_enters_beam(avr_t *a, avr_cycle_count_t when, void *param) {
    (void)a; (void)when; (void)param;
    if (deck_top >= deck_len) return 0;  /* nothing to feed: the firmware times out (jam) */
    if (deck[deck_top] == CUT_CARD) cut_cards_ejected++;
    else cards_fed++;
    deck_top++;
    drive('D', 5, 0);
    drive_shoe();
    avr_cycle_timer_register_usec(avr, 2500, card_clears_beam, NULL);  /* a card takes 2.5 ms to pass */
    return 0;
}

static void feed_motor(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)param;
    if (value && !irq->value) {  /* the roller starts: one card leaves (the separator lets one through) */
        feed_starts++;
        avr_cycle_timer_register_usec(avr, 1000, card_enters_beam, NULL);
    }
}

static void spi_select_pin(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)param;
    if (value) spi_cmd = -1;
}

static void spi_byte(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)param;
    uint8_t out = 0;
    if (spi_cmd < 0) {
        spi_cmd = (int)value;
        spi_index = 0;
    } else if (spi_cmd == 'R') {
        uint8_t card = deck_top < deck_len ? deck[deck_top] : 0;
        if (card == CUT_CARD) card = 0;
        if (misreads > 0) { misreads--; card = 0; }
        out = card;
    } else if (spi_cmd == 'C') {
        int n = cards_left();
        out = spi_index++ == 0 ? (uint8_t)n : (uint8_t)(n >> 8);
    } else if (spi_cmd == 'L') {
        spi_args[spi_index++] = (uint8_t)value;
        if (spi_index == 3) {
            shuffle_into_deck(spi_args[0], spi_args[1] | (spi_args[2] << 8));
            drive_shoe();
        }
    }
    avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_INPUT), out);
}

/* -------------------------------------------------------------------------------------- shuffler */
static int machine_total, tray, out_stack, counted_pulses, pulse_phase, shuffle_running, deal_running;

static void drive_shuffler(void) { drive('D', 6, tray == 0); }

static avr_cycle_count_t pulse_tick(avr_t *a, avr_cycle_count_t when, void *param) {
    (void)a; (void)param;
    if (!shuffle_running && !deal_running) { drive('B', 0, 1); pulse_phase = 0; return 0; }
    if (pulse_phase) {  /* the card leaves the beam */
        pulse_phase = 0;
        drive('B', 0, 1);
        if (shuffle_running && tray == 0) { drive_shuffler(); return 0; }
        return when + 70 * (F_CPU / 1000000);
    }
    if (shuffle_running) {
        if (tray == 0) return 0;
        tray--;
        out_stack++;
    } else {
        if (out_stack == 0) return 0;  /* nothing left to deal */
        out_stack--;
    }
    counted_pulses++;
    pulse_phase = 1;
    drive('B', 0, 0);
    return when + 30 * (F_CPU / 1000000);
}

static void shuffle_motor(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)param;
    if (value && !irq->value) {
        tray = machine_total;  /* the operator put every card back in the input tray */
        out_stack = 0;
        shuffle_running = 1;
        drive_shuffler();
        avr_cycle_timer_register_usec(avr, 100, pulse_tick, NULL);
    } else if (!value && irq->value) {
        shuffle_running = 0;
    }
}

static void deal_motor(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)param;
    if (value && !irq->value) {
        deal_running = 1;
        if (!pulse_phase) avr_cycle_timer_register_usec(avr, 100, pulse_tick, NULL);
    } else if (!value && irq->value) {
        deal_running = 0;
    }
}

/* ----------------------------------------------------------------------------------------- reels */
static const uint8_t SEQUENCE[8] = {0x1, 0x3, 0x2, 0x6, 0x4, 0xC, 0x8, 0x9};
static int reel_pos[3], reel_idx[3] = {-1, -1, -1}, reel_moved[3];
static long reel_steps[3];
static int home_fail_pending, reel_eval_pending;

static int reel_pattern(int r) {
    uint8_t d = avr->data[0x2B], b = avr->data[0x25], c = avr->data[0x28];  /* PORTD, PORTB, PORTC */
    if (r == 0) return d >> 4;
    if (r == 1) return b & 0x0F;
    return (c & 0x07) | ((b & 0x20) ? 0x08 : 0);
}

static void drive_home_flags(void) {
    static const char port[3] = {'B', 'C', 'C'};
    static const int bit[3] = {4, 4, 5};
    for (int r = 0; r < 3; r++) {
        int at_home = (reel_pos[r] & 4095) == 0 && !(r == 2 && home_fail_pending > 0);
        drive(port[r], bit[r], !at_home);
    }
}

static avr_cycle_count_t reels_evaluate(avr_t *a, avr_cycle_count_t when, void *param) {
    (void)a; (void)when; (void)param;
    reel_eval_pending = 0;
    for (int r = 0; r < 3; r++) {
        int pattern = reel_pattern(r), idx = -1;
        for (int i = 0; i < 8; i++) if (SEQUENCE[i] == pattern) idx = i;
        if (pattern == 0) {
            if (reel_idx[r] >= 0 && r == 2 && reel_moved[2] && home_fail_pending > 0) home_fail_pending--;
            reel_idx[r] = -1;
            reel_moved[r] = 0;
            continue;
        }
        if (idx < 0) continue;  /* not a half-step pattern: the rotor does not move */
        int from = reel_idx[r] >= 0 ? reel_idx[r] : (reel_pos[r] & 7);
        int delta = ((idx - from) % 8 + 8) % 8;
        if (delta > 4) delta -= 8;
        reel_pos[r] = ((reel_pos[r] + delta) % 4096 + 4096) % 4096;
        reel_steps[r] += delta < 0 ? -delta : delta;
        if (delta) reel_moved[r] = 1;
        reel_idx[r] = idx;
    }
    drive_home_flags();
    return 0;
}

static void coil_change(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)value; (void)param;
    if (!reel_eval_pending) {
        reel_eval_pending = 1;
        avr_cycle_timer_register(avr, 32, reels_evaluate, NULL);
    }
}

/* ------------------------------------------------------------------------------------------ uart */
static uint8_t to_host[65536];
static size_t to_host_len;
static uint8_t from_host[4096];
static size_t from_host_len;
static int uart_xoff;

static void uart_out(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)param;
    if (to_host_len < sizeof to_host) to_host[to_host_len++] = (uint8_t)value;
}

static void uart_pump(void) {
    size_t i = 0;
    while (i < from_host_len && !uart_xoff) {
        avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT), from_host[i++]);
    }
    memmove(from_host, from_host + i, from_host_len - i);
    from_host_len -= i;
}

static void uart_xon_cb(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)value; (void)param;
    uart_xoff = 0;
}

static void uart_xoff_cb(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)value; (void)param;
    uart_xoff = 1;
}

/* ---------------------------------------------------------------------------------------- resets */
static int reset_reply_pending;
static uint64_t reset_asked_at;

static void fill_random_sram(void) {
    for (int a = SRAM_START; a < SRAM_END; a++) avr->data[a] = (uint8_t)rnd();
}

static void drive_world(void) {
    drive_common();
    if (!strcmp(kind, "shoe")) { drive_shoe(); drive('D', 5, 1); }
    else if (!strcmp(kind, "shuffler")) { drive_shuffler(); drive('B', 0, 1); }
    else drive_home_flags();
}

static void chip_reset(const char *cause) {
    static uint8_t ram[SRAM_END];
    memcpy(ram, avr->data, SRAM_END);
    avr_reset(avr);
    if (!strcmp(cause, "power_on")) fill_random_sram();
    else memcpy(avr->data + SRAM_START, ram + SRAM_START, SRAM_END - SRAM_START);  /* warm: RAM kept */
    uint8_t flag = !strcmp(cause, "power_on") ? 0x01 : !strcmp(cause, "brown_out") ? 0x04 : 0x08;
    avr->data[MCUSR_ADDR] = flag;
    if (diag_addr) avr->data[diag_addr] = 0;
    reel_idx[0] = reel_idx[1] = reel_idx[2] = -1;  /* coils dropped with the outputs */
    spi_cmd = -1;
    drive_world();
    /* the reset cleared PINx, and simavr does not re-raise an IRQ whose level did not change */
    static const int pin_addr[3] = {0x23, 0x26, 0x29};
    for (int i = 0; i < 3; i++)
        avr->data[pin_addr[i]] = (uint8_t)((avr->data[pin_addr[i]] & ~ext_mask[i]) | (ext_value[i] & ext_mask[i]));
}

static uint32_t diag_u32(int offset) {
    const uint8_t *p = avr->data + diag_addr + offset;
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* --------------------------------------------------------------------------------------- control */
static int quitting;

static void stats(void) {
    char hex[256] = "";
    if (diag_addr)
        for (int i = 0; i < 64; i++) sprintf(hex + 2 * i, "%02x", avr->data[diag_addr + i]);
    char world[512];
    if (!strcmp(kind, "shoe"))
        snprintf(world, sizeof world, "\"cards\": %d, \"cards_fed\": %d, \"cut_cards_ejected\": %d, "
                 "\"feed_starts\": %d", cards_left(), cards_fed, cut_cards_ejected, feed_starts);
    else if (!strcmp(kind, "shuffler"))
        snprintf(world, sizeof world, "\"cards\": %d, \"counted_pulses\": %d", out_stack, counted_pulses);
    else
        snprintf(world, sizeof world, "\"positions\": [%d, %d, %d], \"steps\": [%ld, %ld, %ld]",
                 reel_pos[0], reel_pos[1], reel_pos[2], reel_steps[0], reel_steps[1], reel_steps[2]);
    reply("{\"ok\": true, \"world\": {\"door_open\": %s, \"jammed\": %s, %s, \"cycle\": %llu}, "
          "\"diag\": \"%s\"}", door_open ? "true" : "false", jam_on ? "true" : "false", world,
          (unsigned long long)avr->cycle, hex);
}

static void control(char *line) {
    char cmd[32] = "", a1[32] = "", a2[32] = "";
    sscanf(line, "%31s %31s %31s", cmd, a1, a2);
    int shoe = !strcmp(kind, "shoe");
    if (!strcmp(cmd, "stats")) { stats(); return; }
    if (!strcmp(cmd, "door")) { door_open = !strcmp(a1, "open"); drive_common(); }
    else if (!strcmp(cmd, "jam")) { jam_on = 1; drive_common(); }
    else if (!strcmp(cmd, "clear")) { jam_on = 0; drive_common(); }
    else if (!strcmp(cmd, "empty") && shoe) { deck_top = deck_len; drive_shoe(); }
    else if (!strcmp(cmd, "misread") && shoe) misreads += a1[0] ? atoi(a1) : 1;
    else if (!strcmp(cmd, "load") && shoe) {
        int decks = atoi(a1);
        if (decks < 1 || decks > 12) { reply("{\"ok\": false, \"error\": \"decks must be 1..12\"}"); return; }
        shuffle_into_deck(decks, a2[0] ? atoi(a2) : (decks >= 4 ? 70 : 0));
        drive_shoe();
        reply("{\"ok\": true, \"cards\": %d}", decks * 52);
        return;
    }
    else if (!strcmp(cmd, "home_fail") && !strcmp(kind, "reels")) { home_fail_pending += a1[0] ? atoi(a1) : 1; drive_home_flags(); }
    else if (!strcmp(cmd, "reset")) {
        const char *cause = a1[0] ? a1 : "watchdog";
        if (strcmp(cause, "watchdog") && strcmp(cause, "brown_out") && strcmp(cause, "power_on")) {
            reply("{\"ok\": false, \"error\": \"reset cause must be watchdog, brown_out or power_on\"}");
            return;
        }
        chip_reset(cause);
        reset_reply_pending = 1;
        reset_asked_at = avr->cycle;
        return;  /* answered once the firmware has booted */
    }
    else if (!strcmp(cmd, "quit")) { quitting = 1; }
    else { reply("{\"ok\": false, \"error\": \"unknown command '%s' for a %s\"}", cmd, kind); return; }
    reply("{\"ok\": true}");
}

/* ------------------------------------------------------------------------------------------ main */
static void no_sleep(avr_t *a, avr_cycle_count_t howlong) { (void)a; (void)howlong; }

static char ctl_buf[4096];
static size_t ctl_len;
static int stdin_open = 1;

static void service(int timeout_us) {
    struct pollfd fds[2] = {{pty_master, POLLIN, 0}, {0, POLLIN, 0}};
    if (to_host_len) fds[0].events |= POLLOUT;
    struct timespec ts = {timeout_us / 1000000, (long)(timeout_us % 1000000) * 1000};
    int n = ppoll(fds, stdin_open ? 2 : 1, &ts, NULL);
    if (n <= 0) return;
    if (fds[0].revents & POLLIN && from_host_len < sizeof from_host) {
        ssize_t r = read(pty_master, from_host + from_host_len, sizeof from_host - from_host_len);
        if (r > 0) from_host_len += (size_t)r;
    }
    if (to_host_len && (fds[0].revents & POLLOUT)) {
        ssize_t w = write(pty_master, to_host, to_host_len);
        if (w > 0) {
            memmove(to_host, to_host + w, to_host_len - (size_t)w);
            to_host_len -= (size_t)w;
        }
    }
    if (stdin_open && (fds[1].revents & (POLLIN | POLLHUP))) {
        ssize_t r = read(0, ctl_buf + ctl_len, sizeof ctl_buf - 1 - ctl_len);
        if (r <= 0) { stdin_open = 0; quitting = 1; return; }
        ctl_len += (size_t)r;
        char *nl;
        while ((nl = memchr(ctl_buf, '\n', ctl_len))) {
            *nl = 0;
            if (nl != ctl_buf) control(ctl_buf);
            size_t used = (size_t)(nl - ctl_buf) + 1;
            memmove(ctl_buf, ctl_buf + used, ctl_len - used);
            ctl_len -= used;
        }
    }
}

int main(int argc, char **argv) {
    const char *elf = NULL;
    int decks = -1, cut = -1;
    long seed = -1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--elf")) elf = argv[i + 1];
        else if (!strcmp(argv[i], "--kind")) snprintf(kind, sizeof kind, "%s", argv[i + 1]);
        else if (!strcmp(argv[i], "--decks")) decks = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--cut")) cut = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = atol(argv[i + 1]);
        else { fprintf(stderr, "fbsim: unknown option %s\n", argv[i]); return 2; }
    }
    if (!elf || (strcmp(kind, "shoe") && strcmp(kind, "shuffler") && strcmp(kind, "reels"))) {
        fprintf(stderr, "usage: fbsim --kind shoe|shuffler|reels --elf FILE [--decks N] [--cut N] [--seed N]\n");
        return 2;
    }
    if (seed >= 0) rng_state ^= (uint64_t)seed * 0x9E3779B97F4A7C15ULL;
    else rng_state ^= now_us() ^ ((uint64_t)getpid() << 32);
    if (!rng_state) rng_state = 1;
    ctl_out = dup(1);
    dup2(2, 1);  /* simavr's own messages go to stderr; stdout is the control channel */

    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(elf, &fw)) { fprintf(stderr, "fbsim: cannot read %s\n", elf); return 1; }
    avr = avr_make_mcu_by_name("atmega328p");
    if (!avr) { fprintf(stderr, "fbsim: simavr has no atmega328p core\n"); return 1; }
    avr_init(avr);
    avr->frequency = F_CPU;
    avr->log = 1;
    avr_load_firmware(avr, &fw);
    avr->sleep = no_sleep;
    for (uint32_t i = 0; i < fw.symbolcount; i++)
        if (!strcmp(fw.symbol[i]->symbol, "fb_diag")) diag_addr = fw.symbol[i]->addr & 0xFFFF;

    /* UART on a pty; we keep the slave open so the host may close and reopen it freely */
    pty_master = posix_openpt(O_RDWR | O_NOCTTY);
    if (pty_master < 0 || grantpt(pty_master) || unlockpt(pty_master)) { perror("fbsim: pty"); return 1; }
    const char *slave_path = ptsname(pty_master);
    int slave = open(slave_path, O_RDWR | O_NOCTTY);
    struct termios tio;
    tcgetattr(slave, &tio);
    cfmakeraw(&tio);
    tcsetattr(slave, TCSANOW, &tio);
    fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);

    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_xon_cb, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_xoff_cb, NULL);

    if (!strcmp(kind, "shoe")) {
        if (decks < 0) decks = 6;
        shuffle_into_deck(decks, cut >= 0 ? cut : (decks >= 4 ? 70 : 0));
        avr_irq_register_notify(pin_irq('D', 6), feed_motor, NULL);
        avr_irq_register_notify(pin_irq('B', 2), spi_select_pin, NULL);
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), spi_byte, NULL);
    } else if (!strcmp(kind, "shuffler")) {
        machine_total = 52 * (decks < 0 ? 1 : decks);
        avr_irq_register_notify(pin_irq('D', 4), shuffle_motor, NULL);
        avr_irq_register_notify(pin_irq('D', 5), deal_motor, NULL);
    } else {
        for (int r = 0; r < 3; r++) reel_pos[r] = (int)(rnd() % 4096);  /* wherever the reels were left */
        for (int b = 4; b < 8; b++) avr_irq_register_notify(pin_irq('D', b), coil_change, NULL);
        for (int b = 0; b < 4; b++) avr_irq_register_notify(pin_irq('B', b), coil_change, NULL);
        avr_irq_register_notify(pin_irq('B', 5), coil_change, NULL);
        for (int b = 0; b < 3; b++) avr_irq_register_notify(pin_irq('C', b), coil_change, NULL);
    }
    fill_random_sram();  /* power-on: SRAM cells hold noise */
    avr->data[MCUSR_ADDR] = 0x01;
    drive_world();

    char hello[512];
    snprintf(hello, sizeof hello, "{\"port\": \"%s\", \"tty\": \"%s\", \"pid\": %d, \"kind\": \"%s\", \"diag\": %u}",
             slave_path, slave_path, getpid(), kind, diag_addr);
    reply("%s", hello);

    signal(SIGPIPE, SIG_IGN);
    uint64_t wall0 = now_us();
    avr_cycle_count_t cycle0 = avr->cycle, last_service = avr->cycle;
    while (!quitting) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "fbsim: the AVR stopped (state %d) at pc 0x%04x\n", state, avr->pc);
            reply("{\"ok\": false, \"error\": \"the AVR crashed\"}");
            return 1;
        }
        if (avr->cycle - last_service < 4000) continue;  /* every 250 us of simulated time */
        last_service = avr->cycle;
        uint64_t sim_us = (avr->cycle - cycle0) * 1000000ULL / F_CPU;
        uint64_t wall_us = now_us() - wall0;
        if (wall_us > sim_us + 20000) {  /* the host machine stalled us: do not race to catch up */
            wall0 += wall_us - sim_us;
            wall_us = sim_us;
        }
        service(sim_us > wall_us ? (int)(sim_us - wall_us) : 0);
        uart_pump();
        if (reset_reply_pending && diag_addr && avr->data[diag_addr] == 0xA5) {
            reset_reply_pending = 0;
            reply("{\"ok\": true, \"boot_id\": %u}", diag_u32(1));
        } else if (reset_reply_pending && avr->cycle - reset_asked_at > F_CPU) {
            reset_reply_pending = 0;
            reply("{\"ok\": false, \"error\": \"the firmware did not boot within 1 s\"}");
        }
    }
    close(slave);
    return 0;
}
