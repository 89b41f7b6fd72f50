"""Length conversions."""

KM_PER_MILE = 1.609344


def miles_to_km(miles: float) -> float:
    return miles * KM_PER_MILE
