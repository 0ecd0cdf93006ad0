/// Time zones the calendar oracle covers: DST in both hemispheres, DST changes at midnight, half-hour and
/// 45-minute offsets, a 30-minute DST shift (Lord Howe), a 2-hour one (Troll), zones that dropped or
/// resumed DST in the test years, and the extremes of the offset range.
let oracleZones = [
    "UTC",
    "America/New_York", "America/Los_Angeles", "America/Chicago", "America/St_Johns", "America/Havana",
    "America/Santiago", "America/Asuncion", "America/Sao_Paulo", "America/Nuuk",
    "Europe/London", "Europe/Berlin", "Europe/Moscow", "Atlantic/Azores", "Africa/Cairo", "Asia/Beirut",
    "Asia/Tehran", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Seoul", "Asia/Tokyo",
    "Australia/Sydney", "Australia/Adelaide", "Australia/Lord_Howe",
    "Pacific/Auckland", "Pacific/Chatham", "Pacific/Apia", "Pacific/Kiritimati", "Pacific/Pago_Pago",
    "Antarctica/Troll",
]
