"""The independent judge of HTTP dates for HTTPDateTests: reads lines "SECONDS NOW" (seconds since 1970)
from the file its argument names and writes, for each, the instant SECONDS in RFC 9110's three forms,
built from the C library's gmtime, and the instant its RFC 850 form names when read at NOW (two-digit
years: RFC 9110 §5.6.7), from calendar.timegm, or "-" when that year has no such day (29 February 2000
read as 1900):  IMF-FIXDATE|RFC850|ASCTIME|RFC850-SECONDS
"""
import calendar
import sys
import time

DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]  # tm_wday: Monday is 0
LONG_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

for line in open(sys.argv[1]):
    seconds, now = (int(field) for field in line.split())
    t = time.gmtime(seconds)
    clock = "%02d:%02d:%02d" % (t.tm_hour, t.tm_min, t.tm_sec)
    imf = "%s, %02d %s %04d %s GMT" % (DAYS[t.tm_wday], t.tm_mday, MONTHS[t.tm_mon - 1], t.tm_year, clock)
    rfc850 = "%s, %02d-%s-%02d %s GMT" % (LONG_DAYS[t.tm_wday], t.tm_mday, MONTHS[t.tm_mon - 1], t.tm_year % 100, clock)
    asctime = "%s %s %2d %s %04d" % (DAYS[t.tm_wday], MONTHS[t.tm_mon - 1], t.tm_mday, clock, t.tm_year)
    # RFC 9110: a timestamp that appears more than 50 years in the future belongs to the century before;
    # compared field by field against now's own fields 50 years on.
    n = time.gmtime(now)
    year = n.tm_year - n.tm_year % 100 + t.tm_year % 100
    fields = (year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)
    if fields > (n.tm_year + 50, n.tm_mon, n.tm_mday, n.tm_hour, n.tm_min, n.tm_sec):
        year -= 100
    if t.tm_mday > calendar.monthrange(year, t.tm_mon)[1]:
        named = "-"
    else:
        named = str(calendar.timegm((year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)))
    print("%s|%s|%s|%s" % (imf, rfc850, asctime, named))
