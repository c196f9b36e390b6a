/* Three-reel slot display (RULES H7): 28BYJ-48 steppers on ULN2003 boards, half-stepping, a home flag per
 * reel. The host chooses the stops (0..63); the reels only show them. A reset forgets the positions.
 *
 * One revolution is 4096 half-steps, so a stop is 64 half-steps. Timer1 steps every reel in one ISR;
 * the main loop reports REEL_STOPPED in reel order (reel 1 lands first, as players expect).
 */
#include <avr/interrupt.h>
#include <util/atomic.h>

#include "device.h"
#include "hal.h"

#ifndef REEL_SPIN_REVS
#define REEL_SPIN_REVS 1   /* whole turns before landing; reel n turns n more */
#endif
#define STEPS_PER_REV 4096u
#define STEPS_PER_STOP 64u
#define REEL_STOPS 64

const uint8_t device_kind = FB_DEVICEKIND_REELS;
const uint16_t device_capabilities = FB_CAPABILITY_REELS3 | FB_CAPABILITY_DOOR_SENSOR;

static const uint8_t SEQUENCE[8] = {0x1, 0x3, 0x2, 0x6, 0x4, 0xC, 0x8, 0x9};
enum { STILL, MOVE, HOME };

struct reel {
    volatile uint16_t pos;        /* half-steps from home */
    volatile uint16_t remaining;  /* steps left (MOVE) or search limit (HOME) */
    volatile uint8_t mode;
    volatile uint8_t finished;    /* 1 landed, 2 home not found */
};
static struct reel reels[3];
static uint8_t homed, homing, moving, report_next, home_failed;
static uint16_t targets[3];
static int32_t display[6];

static uint8_t at_home(uint8_t r) {
    return r == 0 ? REEL1_HOME() : r == 1 ? REEL2_HOME() : REEL3_HOME();
}

ISR(TIMER1_COMPA_vect) {
    uint8_t busy = 0;
    for (uint8_t r = 0; r < 3; r++) {
        struct reel *reel = &reels[r];
        if (reel->mode == STILL) continue;
        if (reel->mode == HOME && at_home(r)) {
            reel->pos = 0;
            reel->finished = 1;
        } else if (reel->remaining == 0) {
            reel->finished = reel->mode == HOME ? 2 : 1;
        } else {
            reel->pos = (uint16_t)((reel->pos + 1) & (STEPS_PER_REV - 1));
            reel->remaining--;
            reels_coils(r, SEQUENCE[reel->pos & 7]);
            busy = 1;
            continue;
        }
        reel->mode = STILL;
        reels_coils(r, 0);  /* release: a 28BYJ-48 left energised gets hot */
    }
    if (!busy) {
        for (uint8_t r = 0; r < 3; r++) busy |= reels[r].mode != STILL;
        if (!busy) TIMSK1 = 0;
    }
}

void device_boot(void) {
    TIMSK1 = 0;
    for (uint8_t r = 0; r < 3; r++) {
        reels[r].mode = STILL;
        reels[r].finished = 0;
        reels[r].pos = 0;
        reels_coils(r, 0);
    }
    homed = homing = moving = 0;
}

static void start(uint8_t mode, const uint16_t *steps) {
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        for (uint8_t r = 0; r < 3; r++) {
            reels[r].mode = mode;
            reels[r].remaining = steps[r];
            reels[r].finished = 0;
        }
    }
    report_next = 0;
    reels_timer_start();
}

void device_poll(uint32_t now) {
    (void)now;
    while ((homing || moving) && report_next < 3 && reels[report_next].finished) {
        uint8_t r = report_next++;
        if (reels[r].finished == 2) {
            home_failed = 1;
            meter_add(M_HOME_FAILURES, 1);
            event_emit(FB_MSG_REEL_HOME_FAILED, &r);
        } else {
            uint16_t position = homing ? 0 : targets[r];
            uint8_t args[3] = {r, (uint8_t)position, (uint8_t)(position >> 8)};
            if (moving) meter_add(M_REEL_STOPS, 1);
            event_emit(FB_MSG_REEL_STOPPED, args);
            if (homing && r == 2) homed = !home_failed;
        }
        if (report_next == 3) homing = moving = 0;
    }
}

static uint8_t refused(void) {
    uint8_t blocked = common_blocked();
    if (blocked) return blocked;
    if (homing || moving) return FB_STATUS_BUSY;
    if (event_room() < 4) return FB_STATUS_QUEUE_FULL;
    return FB_STATUS_OK;
}

uint8_t device_execute(uint8_t type, const uint8_t *args, uint8_t *reply, uint32_t now) {
    (void)now;
    uint8_t status;
    switch (type) {
    case FB_MSG_HOME: {
        if ((status = refused())) return reply[0] = status, 1;
        uint16_t limits[3] = {STEPS_PER_REV + STEPS_PER_STOP, STEPS_PER_REV + STEPS_PER_STOP,
                              STEPS_PER_REV + STEPS_PER_STOP};
        homed = 0;
        homing = 1;
        home_failed = 0;
        start(HOME, limits);
        return reply[0] = FB_STATUS_OK, 1;
    }
    case FB_MSG_SPIN: {
        uint16_t stops[3], steps[3];
        for (uint8_t r = 0; r < 3; r++) {
            stops[r] = (uint16_t)(args[2 * r] | (args[2 * r + 1] << 8));
            if (stops[r] >= REEL_STOPS) return reply[0] = FB_STATUS_BAD_PAYLOAD, 1;
        }
        uint8_t blocked = common_blocked();
        if (blocked) return reply[0] = blocked, 1;
        if (!homed) return reply[0] = FB_STATUS_NOT_HOMED, 1;
        if ((status = refused())) return reply[0] = status, 1;
        for (uint8_t r = 0; r < 3; r++) {
            targets[r] = stops[r];
            uint16_t distance = (uint16_t)((stops[r] * STEPS_PER_STOP - reels[r].pos) & (STEPS_PER_REV - 1));
            steps[r] = (uint16_t)(distance + (REEL_SPIN_REVS ? (REEL_SPIN_REVS + r) * STEPS_PER_REV : 0));
        }
        meter_add(M_SPINS, 1);
        moving = 1;
        start(MOVE, steps);
        return reply[0] = FB_STATUS_OK, 1;
    }
    case FB_MSG_SET_DISPLAY: {
        if (args[0] < 6) {  /* credits, bet, paid, free spins, progressive, loss meter */
            display[args[0]] = (int32_t)((uint32_t)args[1] | ((uint32_t)args[2] << 8) | ((uint32_t)args[3] << 16)
                                         | ((uint32_t)args[4] << 24));
        }
        meter_add(M_DISPLAY_UPDATES, 1);
        return reply[0] = FB_STATUS_OK, 1;
    }
    default:
        return 0;
    }
}

uint8_t device_state(void) {
    if (jammed) return 2;
    return (homing || moving) ? 1 : 0;
}

uint16_t device_flags(void) {
    uint16_t flags = homed ? 0x0010 : 0;
    if (door_open) flags |= 0x0001;
    if (jammed) flags |= 0x0002;
    return flags;
}

uint16_t device_cards(void) { return 0; }

void device_safe(void) {
    /* a spinning reel keeps stepping to its commanded stop (the ISR finishes the move); nothing new starts
     * until the host is back */
}
