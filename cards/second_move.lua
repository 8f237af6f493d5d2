-- Second move (R8.9): another move this turn, with a different checker (R4,
-- capture compulsory among the checkers allowed).
function play(ctx)
  local moved = ctx:moved()
  -- Ruling: with no move this turn (R3.1 skipped it), any checker may go.
  local filter = moved and { exclude = { moved.now } } or {}
  local moves = ctx:legal_moves(filter)
  if #moves == 0 then
    ctx:log("Second move: no other checker can move")
    return
  end
  local move = ctx:ask_move("Second move: which move?", moves)
  ctx:play_move(move, filter)
end
