-- Quake (a new card; see quake.yaml for its rulings): every checker beside one
-- of the monolith's sides is shoved one square straight away from it, if it can
-- step there. No questions: the quake decides everything.
function play(ctx)
  local block = ctx:monolith_squares()          -- {} when it is not on the board
  if #block == 0 then
    ctx:log("Quake: the monolith is not on the board, nothing shakes")
    return
  end
  local covered = {}
  for _, sq in ipairs(block) do covered[sq] = true end

  -- 1. Decide every push on the board as it is now. step_targets applies the
  --    rules for us: the target must be empty (R4.5), walls that block this
  --    checker stop it (R5.3, R5.6), a frozen checker goes nowhere (R4.7).
  --    Block squares come sorted and each side's two squares are found in
  --    square order, so pawns reaching a king row are crowned in order (R6.2).
  local pushes = {}
  for _, sq in ipairs(block) do
    for _, dir in ipairs{ "n", "e", "s", "w" } do
      local beside = ctx:neighbour(sq, dir)
      if beside and not covered[beside] and ctx:checker(beside) then
        local to = ctx:step_targets(beside, dir)[1]
        if to then
          pushes[#pushes + 1] = { from = beside, to = to }
        end
      end
    end
  end

  -- 2. Make them. No target is a shaken square, so the order cannot matter.
  --    Each move is told to the players as it happens (an event).
  for _, push in ipairs(pushes) do
    ctx:relocate(push.from, push.to)
  end
  if #pushes == 0 then
    ctx:log("Quake: the monolith shudders, but nothing can move")
  end
end
