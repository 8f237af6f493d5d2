-- Rotate (R8.21): turn the board 90° either way (R2.2). The kernel's rotate then
-- crowns every pawn that now stands on its king row (R6.2).
function play(ctx)
  local way = ctx:ask_option("Rotate: turn the board which way?", { "clockwise", "counterclockwise" })
  ctx:rotate(way)
end
