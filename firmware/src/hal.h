/* Hardware abstraction: every pin, timer and peripheral the firmware touches is named here.
 *
 * Board: ATmega328P at 16 MHz (Arduino Uno / Nano). Pin names in comments are the Arduino labels.
 * The wiring table for each device is in firmware/README.md; keep the two in step.
 *
 *   every device   D0/D1  UART to the host (115200 8N1)
 *                  D2     door switch      (input, pull-up; LOW  = door open: NC contact held open by the closed door)
 *                  D3     jam sensor       (input, pull-up; LOW  = jammed)
 *                  A3     status LED       (output; on = link up)
 *   shoe           D4     card present     (input, pull-up; LOW  = a card waits at the gate)
 *                  D5     exit sensor      (input, pull-up; LOW  = a card is in the exit beam)
 *                  D6     feed motor       (output to the motor driver; HIGH = run)
 *                  D7     cut-card sensor  (input, pull-up; LOW  = the cut card is at the gate)
 *                  D10-13 card reader / loader board on SPI (optional; SS = D10)
 *   shuffler       D4     shuffle motor    (output; HIGH = run)
 *                  D5     deal motor       (output; HIGH = run)
 *                  D6     input tray       (input, pull-up; LOW  = cards in the input tray)
 *                  D8     card counter     (input, pull-up; LOW  = a card is in the counting beam)
 *   reels          D4-D7  reel 1 coils IN1-IN4 (ULN2003)
 *                  D8-D11 reel 2 coils IN1-IN4
 *                  A0-A2,D13 reel 3 coils IN1-IN4
 *                  D12    reel 1 home  (input, pull-up; LOW = flag in the home sensor)
 *                  A4     reel 2 home
 *                  A5     reel 3 home
 */
#pragma once

#include <avr/io.h>
#include <stdint.h>

#define F_CPU_HZ 16000000UL
#define UART_BAUD 115200UL

#ifndef REEL_STEP_US
#define REEL_STEP_US 1000  /* 28BYJ-48 half-step period; `make sim` builds with a shorter one */
#endif

/* common inputs */
#define DOOR_OPEN()   ((PIND & _BV(PD2)) == 0)
#define JAM_SENSOR()  ((PIND & _BV(PD3)) == 0)
#define LED_ON()      (PORTC |= _BV(PC3))
#define LED_OFF()     (PORTC &= (uint8_t)~_BV(PC3))

#if defined(DEVICE_SHOE)
#define CARD_PRESENT()  ((PIND & _BV(PD4)) == 0)
#define CARD_IN_EXIT()  ((PIND & _BV(PD5)) == 0)
#define FEED_ON()       (PORTD |= _BV(PD6))
#define FEED_OFF()      (PORTD &= (uint8_t)~_BV(PD6))
#define CUT_AT_GATE()   ((PIND & _BV(PD7)) == 0)
#elif defined(DEVICE_SHUFFLER)
#define SHUFFLE_MOTOR_ON()  (PORTD |= _BV(PD4))
#define SHUFFLE_MOTOR_OFF() (PORTD &= (uint8_t)~_BV(PD4))
#define DEAL_MOTOR_ON()     (PORTD |= _BV(PD5))
#define DEAL_MOTOR_OFF()    (PORTD &= (uint8_t)~_BV(PD5))
#define TRAY_HAS_CARDS()    ((PIND & _BV(PD6)) == 0)
#elif defined(DEVICE_REELS)
#define REEL1_HOME() ((PINB & _BV(PB4)) == 0)
#define REEL2_HOME() ((PINC & _BV(PC4)) == 0)
#define REEL3_HOME() ((PINC & _BV(PC5)) == 0)
#else
#error "build with -DDEVICE_SHOE, -DDEVICE_SHUFFLER or -DDEVICE_REELS"
#endif

void hal_init(void);
uint32_t hal_millis(void);
void hal_idle(void);                 /* sleep until the next interrupt */

/* UART */
int16_t uart_getc(void);             /* -1 when nothing is waiting */
uint8_t uart_tx_room(void);
void uart_putc(uint8_t byte);        /* caller checked uart_tx_room() */
uint8_t uart_tx_idle(void);

/* reset cause and entropy */
uint8_t hal_reset_cause(void);       /* ResetCause value, read once at boot */
uint32_t hal_entropy(void);          /* uninitialised RAM + ADC noise, mixed */
void hal_reboot(void) __attribute__((noreturn));  /* watchdog reset on purpose */
void hal_watchdog_kick(void);

/* SPI (shoe card reader / loader board) */
uint8_t spi_transfer(uint8_t out);
void spi_select(uint8_t on);

/* motors with interrupt-driven timing */
#if defined(DEVICE_SHUFFLER)
extern volatile uint16_t counter_pulses;   /* card counter falling edges */
extern volatile uint16_t counter_stop_at;  /* deal motor stops in the ISR when pulses reach this */
#endif
#if defined(DEVICE_REELS)
void reels_coils(uint8_t reel, uint8_t pattern);  /* 4 bits IN1..IN4 */
void reels_timer_start(void);
#endif
